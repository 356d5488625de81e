#!/usr/bin/env python3
"""ukctl.py SOCKET JSON-REQUEST: one request to uaccessd's control socket,
the reply on stdout (tests use it where uaccessctl is not the subject)."""
import json
import socket
import sys


def call(path, req, timeout=10):
    s = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
    s.settimeout(timeout)
    s.connect(path)
    s.sendall((json.dumps(req) + '\n').encode())
    data = b''
    while True:
        b = s.recv(1 << 16)
        if not b:
            break
        data += b
    s.close()
    return json.loads(data)


if __name__ == '__main__':
    print(json.dumps(call(sys.argv[1], json.loads(sys.argv[2]))))
