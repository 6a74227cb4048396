"""Hostile clients of the real `cascade serve` on loopback: many that never read a large page,
more than the server keeps. The server's memory is its own resident set, read from /proc."""
import pathlib
import re
import resource
import select
import socket
import subprocess
import time

import pytest

from conftest import REPO, binary
import corpus

PAGE_BYTES = 7_900_000
CONNECTION_LIMIT = 1024  # the server's default
BUDGET = 300 << 20


def resident_bytes(pid):
    status = pathlib.Path(f"/proc/{pid}/status").read_text()
    return int(re.search(r"^VmRSS:\s+(\d+) kB", status, re.M).group(1)) * 1024


def large_page():
    paragraph = "<p>" + "waterfall " * 100 + "</p>\n"
    return ("<!doctype html>\n<html><head><title>Large</title></head><body>\n"
            + paragraph * (PAGE_BYTES // len(paragraph)) + "</body></html>\n")


@pytest.fixture
def serving(tmp_path):
    """A `cascade serve` of a one-photo folder whose output folder also holds a 7.9 MB page of
    the user's; yields (process, port)."""
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    wanted = min(hard, 8192)
    if wanted < 2 * CONNECTION_LIMIT + 200:
        pytest.skip(f"needs {2 * CONNECTION_LIMIT + 200} descriptors, the hard limit is {hard}")
    # (Raised here, so that the server inherits it too: its limit is 1,024 connections only
    # with twice as many descriptors.)
    resource.setrlimit(resource.RLIMIT_NOFILE, (wanted, hard))
    source = tmp_path / "source"
    corpus.save(source, "A/p.jpg", corpus.jpeg_bytes(600, 400))
    corpus.save(tmp_path / "out", "large.html", large_page().encode())
    process = subprocess.Popen([binary(), "serve", str(source), "-o", str(tmp_path / "out"), "--catalog",
                                str(tmp_path / "catalog.sqlite"), "-p", "0", "-q"],
                               stdin=subprocess.DEVNULL, stdout=subprocess.PIPE, stderr=subprocess.PIPE, cwd=REPO)
    try:
        printed = ""
        while "Serving" not in printed:
            line = process.stdout.readline().decode(errors="replace")
            assert line, printed + process.stderr.read().decode(errors="replace")
            printed += line
        port = int(re.search(r"http://127\.0\.0\.1:(\d+)/", printed).group(1))
        yield process, port
    finally:
        process.kill()
        process.wait()
        resource.setrlimit(resource.RLIMIT_NOFILE, (soft, hard))


def connect(port):
    client = socket.create_connection(("127.0.0.1", port), timeout=30)
    # A small receive buffer: the client takes little of the page, as a slow reader.
    client.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, 4096)
    return client


def wait_until_all_readable(clients, seconds=180):
    """Waits until every client has some of its answer (the server is sending to each)."""
    pending = {c.fileno(): c for c in clients}
    poller = select.poll()
    for fd in pending:
        poller.register(fd, select.POLLIN)
    deadline = time.monotonic() + seconds
    while pending:
        assert time.monotonic() < deadline, f"{len(pending)} of {len(clients)} clients got nothing"
        for fd, _ in poller.poll(200):
            if fd in pending:
                poller.unregister(fd)
                del pending[fd]


def test_clients_that_never_read_a_large_page_keep_serve_bounded_and_the_next_gets_503(serving):
    """As many clients as the server keeps ask for a 7.9 MB page and never read it: the server
    holds a chunk per connection (the page is streamed, its reload script spliced in), under
    300 MB in all (it took 3.4 GB for 200 such clients when pages were read whole); one more
    client is answered 503 with Retry-After, not closed unanswered."""
    process, port = serving
    clients = []
    try:
        for _ in range(CONNECTION_LIMIT):
            client = connect(port)
            client.sendall(b"GET /large.html HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n")
            clients.append(client)
        wait_until_all_readable(clients)
        peak = max(resident_bytes(process.pid) for _ in range(5) if time.sleep(0.05) is None)
        print(f"{len(clients)} clients that never read a 7.9 MB page: serve's resident set {peak >> 20} MB")
        assert peak < BUDGET, f"serve holds {peak >> 20} MB for {len(clients)} slow readers"
        head = clients[0].recv(512).decode(errors="replace")
        assert head.startswith("HTTP/1.1 200"), head
        length = int(re.search(r"Content-Length: (\d+)\r\n", head).group(1))
        assert length > len(large_page().encode()), "the reload script is counted in the length"

        extra = connect(port)
        extra.sendall(b"GET /large.html HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n")
        answer = b""
        while True:
            chunk = extra.recv(4096)
            if not chunk:
                break
            answer += chunk
        extra.close()
        text = answer.decode(errors="replace")
        assert text.startswith("HTTP/1.1 503"), text[:200]
        assert "Retry-After: 1\r\n" in text, text[:200]
    finally:
        for client in clients:
            client.close()
