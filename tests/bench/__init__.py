"""Load benchmarks run against a real gunicorn: `python -m tests.bench [NAME ...]` or `make bench`.

server.py builds a throwaway `<name>_bench` database and runs gunicorn on it, loadgen.py is a
small stdlib HTTP/1.1 client that spreads simulated users over a few processes, and each other
module is one benchmark (answers.py: quiz answer throughput). The package imports no Django at
module level, so the load processes stay light.
"""
