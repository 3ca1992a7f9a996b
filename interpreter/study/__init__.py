"""Studies of many games: the simulator, its workers (parallel.py, cluster.py), the balance
report, statistics, rule coverage reports and the handling of Ctrl-C in long runs."""
