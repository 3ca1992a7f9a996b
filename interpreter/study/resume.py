"""`jux simulate --resume`: the games an earlier run of the same settings played, read back from
its --json file or its --records folder (refused when the settings or the rule files differ).
A game it stopped unfinished (--max-decisions) is kept as unfinished, not played again."""
from __future__ import annotations

from ..errors import JuxError

SETTING_NAMES = {"ruleset": "ruleset", "variants": "tiles", "players": "players", "bots": "bots",
                 "seed": "--seed", "games_planned": "--games", "max_decisions": "--max-decisions"}


def simulated_before(json_path, records, settings: dict, rules, seeds) -> tuple:
    """--resume: the games an earlier run of the same settings finished ({seed: GameResult}) and
    its time in seconds, from its --json file (or else its --records folder). Nothing yet: ({}, 0)."""
    if json_path is not None and json_path.exists():
        return _results_of_json(json_path, settings, seeds)
    if records is not None and records.is_dir():
        return _results_of_records(records, settings, rules, seeds), 0.0
    return {}, 0.0


def _other_settings(source, made: dict, settings: dict) -> None:
    if made.get("ruleset") == settings["ruleset"] and made.get("variants") == settings["variants"] \
            and made.get("digest") not in (None, settings["digest"]):
        raise JuxError(f"{source} was made with other rule files for {settings['ruleset']}: "
                       f"run without --resume to start again")
    for key, label in SETTING_NAMES.items():
        if key in made and made[key] != settings[key]:
            def show(v):
                return (",".join(map(str, v)) or "none") if isinstance(v, list) else str(v)
            raise JuxError(f"{source} was made with other settings ({label} {show(made[key])}, not "
                           f"{show(settings[key])}): run without --resume to start again, or give the same settings")


def _results_of_json(path, settings: dict, seeds) -> tuple:
    from ..engine.records import read_json
    from .simulate import GameResult

    data = read_json(str(path))  # (strictly: records.read_json)
    summary = data.get("summary") if isinstance(data, dict) else None
    games = data.get("games") if isinstance(data, dict) else None
    if not isinstance(summary, dict) or not isinstance(games, list) or "ruleset" not in summary:
        raise JuxError(f"{path}: not the --json output of jux simulate (no summary and games)")
    made = dict(summary)
    if "games" in summary:  # written before --resume existed: a complete run
        made.setdefault("games_planned", summary["games"])
    _other_settings(path, made, settings)
    done = {}
    try:
        for g in games:
            r = GameResult.from_json(g)
            if r.seed not in seeds or r.seed in done or (not r.unfinished and len(r.scores) != settings["players"]):
                raise ValueError
            done[r.seed] = r
    except (KeyError, TypeError, ValueError):
        raise JuxError(f"{path}: game {len(done) + 1} of the file is not a game of this run (edited file?)") from None
    seconds = summary.get("seconds")
    return done, float(seconds) if isinstance(seconds, (int, float)) else 0.0


def _results_of_records(records, settings: dict, rules, seeds) -> dict:
    """The games of the record files present, replayed to their end."""
    from ..engine.game import Game
    from ..engine.records import read_record
    from ..errors import RecordError
    from .simulate import result_of

    done = {}
    for seed in seeds:
        path = records / f"game-{seed}.json"
        if not path.is_file():
            continue
        rec = read_record(path)
        made = {"ruleset": rec.get("ruleset"), "variants": rec.get("variants"), "digest": rec.get("digest"),
                "players": rec.get("players"), "seed": settings["seed"], "games_planned": settings["games_planned"]}
        if "bots" in rec:
            made["bots"] = rec["bots"]
        _other_settings(path, made, settings)
        try:
            game = Game.from_record(rec, rules=rules, log=False)
        except RecordError as e:
            raise JuxError(f"{path}: {e}") from None
        stopped = not game.over and len(game.answers) == settings["max_decisions"]  # (unfinished)
        if not (game.over or stopped) or game.seed != seed:
            raise JuxError(f"{path}: not a finished game of seed {seed}")
        done[seed] = result_of(game)  # (one stopped: unfinished)
    return done
