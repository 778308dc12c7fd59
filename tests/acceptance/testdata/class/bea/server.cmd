python3 server.py {root}
