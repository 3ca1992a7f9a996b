"""jux simulate / balance --cluster: games played on a Dask distributed cluster (a local one here)."""
import json
import time

import pytest

distributed = pytest.importorskip("distributed")

from jux.interpreter.cli.main import main  # noqa: E402


@pytest.fixture(scope="module")
def cluster():
    with distributed.LocalCluster(n_workers=2, threads_per_worker=1, processes=True,
                                  dashboard_address=None) as c:
        yield c


def without_timing(d):
    s = dict(d["summary"])
    for k in ("seconds", "games_per_second"):
        s.pop(k, None)
    return {**d, "summary": s}


def test_a_cluster_run_gives_the_results_of_a_local_run(cluster, tmp_path, capsys):
    args = ["simulate", "capital_jux", "--players", "3", "--games", "30", "--seed", "7", "--tiles", "outsider",
            "--quiet"]
    assert main(args + ["--cluster", cluster.scheduler_address, "--json", str(tmp_path / "c.json")]) == 0
    assert main(args + ["--workers", "1", "--json", str(tmp_path / "l.json")]) == 0
    on_cluster = json.loads((tmp_path / "c.json").read_text())
    local = json.loads((tmp_path / "l.json").read_text())
    assert [g["seed"] for g in on_cluster["games"]] == list(range(7, 37))
    assert without_timing(on_cluster) == without_timing(local)


def test_a_balance_sweep_on_the_cluster_is_the_local_one(cluster, tmp_path, capsys):
    args = ["balance", "capital_jux", "--players", "3", "--games-per-combo", "3", "--tiles-grid", "scientists",
            "--quiet"]
    assert main(args + ["--cluster", cluster.scheduler_address, "--out", str(tmp_path / "c")]) == 0
    assert main(args + ["--workers", "1", "--out", str(tmp_path / "l")]) == 0
    assert json.loads((tmp_path / "c" / "balance.json").read_text()) == \
        json.loads((tmp_path / "l" / "balance.json").read_text())


def test_a_cluster_that_does_not_answer_is_one_line(tmp_path, capsys):
    start = time.monotonic()
    status = main(["simulate", "capital_jux", "--games", "5", "--cluster", "tcp://127.0.0.1:9",
                   "--cluster-timeout", "1", "--json", str(tmp_path / "x.json")])
    err = capsys.readouterr().err.strip()
    assert status == 1 and "\n" not in err
    assert err.startswith("jux: cannot reach the cluster at tcp://127.0.0.1:9: ")
    assert time.monotonic() - start < 30
