"""What a player may know of a game: views, card infos (a hidden card shows only its back, if any),
and the log, prompts and labels rendered for a viewer.

A viewer is a seat (from 0), None (the referee: everything; tests and tools) or PUBLIC (no seat: a
spectator, who knows only what every seat knows: a card whose knowledge bits are all set, a counter
or a zone's size that no seat is kept from, the log lines every seat reads alike)."""
from __future__ import annotations

from itertools import islice

from ..reading.cards import FACE_DOWN
from ..runtime import events
from ..runtime.events import Known
from ..runtime.played import PLAYED, played_by
from ..runtime.state import SEATS, Card, Seat


class _Public(int):
    """The viewer that is no seat (a spectator): it knows only what every seat knows. (A number
    past every seat's knowledge bit, so that `(mask >> viewer) & 1`, the seats' test, is false for
    it and costs the seats nothing: its own test comes after.)"""

    def __repr__(self) -> str:
        return "PUBLIC"


PUBLIC = _Public(64)


def _every(mask: int, n: int) -> bool:
    """Whether a knowledge bit mask holds each of the n seats' bits (what PUBLIC knows)."""
    full = (1 << n) - 1
    return mask & full == full


class Views:
    """Game's part that shows the game to one player (or to nobody in particular: None)."""

    def knows(self, player: int, card: int) -> bool:
        self._seen("tell who knows a card")
        return bool((self.state.k[card] >> player) & 1)

    def _known_in(self, zone, viewer) -> list:
        """The cards of zone that the viewer knows, as they lie."""
        k = self.state.k
        if viewer is None:
            return list(zone)
        if viewer is PUBLIC:
            n = self.state.n
            return [c for c in zone if _every(k[c], n)]
        return [c for c in zone if (k[c] >> viewer) & 1]

    def _render_value(self, v, viewer) -> str:
        """v as text for the viewer: a card as they know it now (prompts, labels), a logged card
        (events.Known) as they knew it when the line was written."""
        t = type(v)
        if t is Card:
            k = self.state.k[v]
            if viewer is None or (k >> viewer) & 1 or (viewer is PUBLIC and _every(k, self.state.n)):
                return self.rules.card_labels[v]
            S = self.state  # hidden: its back, unless it lies under the top of a pile (stacked_in)
            return FACE_DOWN if S.vis.buried and events.buried(S, v) else self.rules.hidden_labels[v]
        if t is Known:
            c, mask = v
            if viewer is None or (mask >> viewer) & 1 or (viewer is PUBLIC and _every(mask, self.state.n)):
                return self.rules.card_labels[c]
            return FACE_DOWN if mask & events.BURIED else self.rules.hidden_labels[c]
        if t is Seat:
            return self.names[v]
        if t is list:  # a list of things: "red 4, blue 2" ("none" when empty); of lists: "4, 5, 6; 7, 7"
            sep = "; " if any(type(x) is list for x in v) else ", "
            return sep.join(self._render_value(x, viewer) for x in v) if v else "none"
        if t is tuple:  # a tuple reads as its parts, separated by spaces
            return " ".join(self._render_value(x, viewer) for x in v)
        if v is True:
            return "yes"
        if v is False:
            return "no"
        if v is None:
            return "none"
        return str(v)

    def _render(self, parts, viewer) -> str:
        return "".join(self._render_value(p, viewer) for p in parts)

    def render_event(self, event, viewer=None) -> str:
        if event and event[0] == events.TABLE:
            t = self.render_table(event, viewer)
            width = [max([len(c)] + [len(r[i]) for r in t["rows"] if i < len(r)]) for i, c in enumerate(t["columns"])]
            lines = [t["title"], "  " + "  ".join(c.ljust(w) for c, w in zip(t["columns"], width)).rstrip()]
            lines += ["  " + "  ".join(v.ljust(w) for v, w in zip(r, width)).rstrip() for r in t["rows"]]
            return "\n".join(lines)
        # every card in an event is a Known (events.event): the line reads as it did when written
        return "".join([self._render_value(p, viewer) for p in event])

    def render_table(self, event, viewer=None) -> dict:
        """A table event as text for the viewer: {"title", "columns", "rows"}."""
        _, title, columns, rows = event
        return {"title": self.render_event(title, viewer), "columns": list(columns),
                "rows": [[self.render_event(c, viewer) for c in r] for r in rows]}

    def tables(self, viewer: int | None = None) -> list:
        """The tables the rules showed (`show`), as the viewer may read them; "at" is the index
        of the line that holds each in log_lines(viewer). (Only the tables are rendered, not every
        line: a server's state has them each time.)"""
        return [dict(self.render_table(t, viewer), at=i) for i, (t, _, _) in enumerate(self._log_events(viewer))
                if t is not None]

    def log_lines(self, viewer: int | None = None) -> list:
        """The game log in words, as the viewer may know it (None: everything, also every line
        written for some seats only, after the names of the seats it was for; PUBLIC: the lines
        every seat reads, and of a line for some seats only its `else` line, if any)."""
        return [line for _, line in self._log_entries(viewer)]

    def log_since(self, viewer, start: int) -> tuple:
        """The log lines the viewer reads among the events from index `start` on, and where the
        next call starts: a server sends each seat only its new lines, without rendering the old
        ones again (each event keeps what the seats knew when it was written)."""
        log = self.state.log or []
        return [line for _, line in self._log_entries(viewer, start)], len(log)

    def _log_entries(self, viewer, start: int = 0):
        """(the table event or None, the line) of each line of the log the viewer reads (from
        event `start` on)."""
        for table, e, prefix in self._log_events(viewer, start):
            yield table, prefix + self.render_event(e, viewer)

    def _log_events(self, viewer, start: int = 0):
        """(the table event or None, the event to render, the words before it) of each line of the
        log the viewer reads (from event `start` on), none rendered: a line written `to` some seats
        is read by them; the others read its `else` line, or nothing."""
        TO, TABLE = events.TO, events.TABLE
        for e in islice(self.state.log or (), start, None):
            if not e or e[0] != TO:
                yield (e if e and e[0] == TABLE else None), e, ""
                continue
            _, mask, theirs, others = e
            if viewer is PUBLIC:  # (a line for every seat is everyone's; else the others' line)
                line = theirs if _every(mask, self.state.n) else others
                if line is not None:
                    yield None, line, ""
                continue
            if viewer is not None:
                line = theirs if (mask >> viewer) & 1 else others
                if line is not None:
                    yield None, line, ""
                continue
            who = [self.names[p] for p in range(self.state.n) if (mask >> p) & 1]
            yield None, theirs, f"(to {', '.join(who) or 'no one'}) "
            if others is not None:
                yield None, others, "(to the others) "

    def card_info(self, c: int, viewer) -> dict:
        k = self.state.k[c]
        if viewer is None or (k >> viewer) & 1 or (viewer is PUBLIC and _every(k, self.state.n)):
            d = dict(self.rules.card_attrs[c])
            d["label"] = self.rules.card_labels[c]
            d["id"] = int(c)
            if self.rules.worth_fn is not None:
                d["worth"] = self.rules.worth_fn(self.state, c)
            marks = self.state.m.get(c)
            if marks and PLAYED in marks:  # (who played it is no mark: a view gives it as played_by)
                marks = {k: v for k, v in marks.items() if k != PLAYED}
            if marks:  # a mark that holds a card shows it as the viewer knows it (never its id)
                d["marks"] = {k: self._render_value(v, viewer) if type(v) is Card else v for k, v in marks.items()}
                for k, v in marks.items():  # a mark named as an attribute shows instead of it
                    if k in d and v is not None:
                        d[k] = v
            return d
        back = self.rules.card_backs[c]
        if back is None or (self.state.vis.buried and events.buried(self.state, c)):
            return {"hidden": True}
        return {"hidden": True, "back": dict(back)}  # what everyone sees of it

    def read_card(self, c, viewer: int | None = None) -> dict | None:
        """Card c in full as the viewer may know it (card_reading.reading: its label, kind and the
        kind's text, attributes, worth, marks, the texts of the rules it carries); a card the viewer
        does not know reads only as card_info shows it (its back, if any); None: no such card."""
        if type(c) is bool or not isinstance(c, int) or not 0 <= c < len(self.rules.card_attrs):
            return None
        if viewer is not None:
            self._seen("show a card to a player")
        info = self.card_info(c, viewer)
        if info.get("hidden"):
            return info
        from .card_reading import reading

        return reading(self.rules, info)

    def view(self, player: int | None, log: bool = True) -> dict:
        """What one player may know (None: everything; PUBLIC: what every seat knows, no decision,
        "player" None). A hidden card shows only as {'hidden': True}, with its back ({'back':
        {attribute: value}}) when its kind has one that shows. log=False: without "log" (a server
        sends the new lines alone: log_since)."""
        if player is not None:
            self._seen("show a player's view")
        S = self.state
        lay = self.rules.layout
        zones = []
        unsized = player is not None and _secrets(self.rules)[1] and not self.over
        unmade = lay.unmade(S.v) if lay.families else ()  # a family's zones not made now: not shown
        for zi, zone in enumerate(S.z):
            if unmade and zi in unmade:
                continue
            name, key, owner = lay.zone_of(zi)
            if unsized and self.size_hidden(name, owner, player):  # only the cards the viewer knows, not how many
                zones.append({"name": name, "key": key, "owner": owner, "size_hidden": True,
                              "cards": [self.card_info(c, player) for c in self._known_in(zone, player)]})
                continue
            if name in self.rules.sort_fns:  # a zone players see sorted (its `sort`)
                zone = self._sorted(name, zone, player)
            cards = [self.card_info(c, player) for c in zone]
            if lay.zone_def[name].get("played_by"):  # who played each card (everyone saw it played)
                _with_players(self.state, zone, cards)
            zones.append({"name": name, "key": key, "owner": owner, "cards": cards})
        counters = self.counters_view(player)
        mine = [d for d in self.pending if player is None or d.player == player]  # (PUBLIC: none)
        view = {
            "ruleset": self.rules.name, "player": None if player is PUBLIC else player, "players": S.n, "names": list(self.names),
            "zones": zones, "counters": counters,
            "decisions": [{"id": d.id, "player": d.player, "prompt": d.prompt, "min": d.min, "max": d.max,
                           "options": [dict({"id": o.id, "label": o.label}, **({"hint": o.hint} if o.hint else {}))
                                       for o in d.options]} for d in mine],
            "waiting_for": sorted({d.player for d in self.pending}),
            "log": self.log_lines(player) if log else None, "tables": self.tables(player), "over": self.over,
            "scores": self.scores if self.over else None,
            "standing": self.standing(player),
            "shown": [[title, self._render_value(f(S), player)] for title, f in self.rules.table_fns],
        }
        if not log:
            del view["log"]
        return view

    def counter_hidden(self, name: str, owner: int | None, viewer: int | None) -> bool:
        """Whether the viewer may not see counter name (of seat owner, None for a counter of no
        seat): `visible: owner` hides it from the other seats, `visible: none` from every seat;
        the referee (None) sees every counter, and at the game's end every seat does; PUBLIC sees
        only a counter that no seat is kept from."""
        if viewer is None or self.over:
            return False
        vis = self.rules.layout.counter_def.get(name)
        vis = vis.get("visible", "all") if isinstance(vis, dict) else "all"
        if viewer is PUBLIC:
            return any(self.counter_hidden(name, owner, p) for p in range(self.state.n))
        return vis == "none" or (vis == "owner" and owner != viewer)

    def size_hidden(self, name: str, owner: int | None, viewer: int | None) -> bool:
        """Whether the viewer may not see how many cards zone name (of seat owner) holds: a zone
        with `size: hidden` that the viewer cannot see (shown to all at the game's end); PUBLIC
        sees the size only where every seat does."""
        if viewer is None or self.over:
            return False
        z = self.rules.layout.zone_def.get(name) or {}
        if z.get("size") != "hidden":
            return False
        if viewer is PUBLIC:
            return any(self.size_hidden(name, owner, p) for p in range(self.state.n))
        return not (z.get("visible") == "owner" and owner == viewer)

    def counters_view(self, player: int | None) -> dict:
        """Every counter's value as the viewer may know it: HIDDEN where it may not."""
        S = self.state
        lay = self.rules.layout
        if player is None or not _secrets(self.rules)[0] or self.over:
            player = None  # (every value shows)
        counters = {}
        viewer = player if player is not None or self.over else None
        shown = self._counter_shown
        for ci, (name, key) in enumerate(lay.fixed_counters):
            v = dict(HIDDEN) if self.counter_hidden(name, None, player) else shown(S.v[ci], viewer)
            if key is None:
                counters[name] = v
            else:
                counters.setdefault(name, {})[key] = v
        for name in lay.player_counters:
            keys = lay.player_keys.get(name)
            counters[name] = [dict(HIDDEN) if self.counter_hidden(name, p, player) else
                              {k: shown(S.v[lay.counter(name, p, k)], viewer) for k in keys} if keys else
                              shown(S.v[lay.counter(name, p)], viewer) for p in range(S.n)]
        return counters

    def _counter_shown(self, v, viewer):
        """A counter's value in a view: a card it holds as the viewer knows it (a card's info, or
        {"hidden": true} with its back: never the card's id where the viewer does not know it)."""
        t = type(v)
        if t is Card:
            return self.card_info(v, viewer)
        if (t is list or t is tuple) and any(type(x) in (Card, list, tuple) for x in v):
            return [self._counter_shown(x, viewer) for x in v]
        return _plain(v)

    def _sorted(self, name: str, zone, player) -> list:
        """A zone's cards as player sees them where the zone has a `sort`: the cards player knows by
        their keys (stable), then the others as they lie, so the order tells nothing hidden."""
        key = self.rules.sort_fns[name]
        known = self._known_in(zone, player)
        seen = set(known)
        unknown = [c for c in zone if c not in seen] if len(seen) < len(zone) else []
        try:
            known.sort(key=lambda c: _sort_key(key(self.state, c)))
        except TypeError:  # keys that do not compare (a number and a text): as the cards lie
            pass
        return known + unknown

    def standing(self, viewer: int | None = None) -> list | None:
        """Each seat's standing as the ruleset's `standing(p)` gives it (parts that every seat may
        know, e.g. [["cards", 15], ["coins", 2]]), each part's name as the viewer reads it; None
        when the ruleset declares none. At the game's end, the points a variant adds to the score
        but not to the standing (a warning of `jux validate`) are a part named after it, so the
        standing adds up to the final score."""
        f = self.rules.standing_fn
        apart = self.rules.spec.score_apart if self.over else ()
        if f is None and not apart:
            return None
        out, scores = [], self.scores if apart else None
        hide = _own_secret_parts(self.rules) if not self.over and viewer is not None else set()
        for p in range(self.state.n):
            parts = f(self.state, SEATS[p]) if f is not None else []
            shown = [[self._render_value(part[0], viewer) if isinstance(part, tuple) else "",
                      _plain(part[1] if isinstance(part, tuple) else part)] for part in (parts or [])]
            if hide and viewer != p:  # (a seat's own secret in its standing: the others see it hidden)
                shown = [[name, dict(HIDDEN) if hide == "all" or i in hide else v] for i, (name, v) in enumerate(shown)]
            if apart:  # a variant's points in the score but not the standing: a part of their own
                rest = scores[p] - sum(v for _, v in shown if type(v) in (int, float))
                if rest:
                    shown.append([" and ".join(apart), rest])
            out.append(shown)
        return out


HIDDEN = {"hidden": True}  # a counter's value that the viewer may not see (view()["counters"])


def _secrets(rules) -> tuple:
    """(whether some counter is not `visible: all`, whether some zone has `size: hidden`), worked
    out once per ruleset: a view of rules without either skips the questions."""
    got = rules.__dict__.get("_view_secrets")
    if got is None:
        lay = rules.layout
        got = rules._view_secrets = (
            any(isinstance(d, dict) and d.get("visible", "all") != "all" for d in lay.counter_def.values()),
            any(isinstance(d, dict) and d.get("size") == "hidden" for d in lay.zone_def.values()))
    return got


def _own_secret_parts(rules):
    """checks.secrets.secret_parts of the rules, worked out once per ruleset."""
    got = rules.__dict__.get("_own_secret_parts")
    if got is None:
        from ..checks.secrets import secret_parts

        got = rules._own_secret_parts = secret_parts(rules.spec)
    return got


def _plain(v):
    if type(v) in (Seat, Card):
        return int(v)
    return v


def _sort_key(k):
    """A zone's sort key as Python compares it: a list as a tuple."""
    return tuple(k) if type(k) is list else k


def _with_players(S, zone, cards: list) -> None:
    """Give each card of a `played_by` zone the seat that played it ("played_by": seat, or None)."""
    for c, info in zip(zone, cards):
        seat = played_by(S, c)
        info["played_by"] = None if seat is None else int(seat)
