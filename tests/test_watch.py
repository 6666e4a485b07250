"""The live streams' one reader per process (``service.watch``), on a real
Redis: many watchers, one connection; every append wakes its watchers, an
append made before a watcher's wait is not missed, and a wait ends on time."""

import threading
import time

import redis

from service.watch import LogWatcher


def _connections(client: redis.Redis, name: str) -> int:
    return sum(1 for c in client.client_list() if c.get("name") == name)


def test_a_hundred_watchers_of_ten_logs_wait_on_one_connection_and_each_is_woken(redis_url, redis_client, prefix):
    name = f"watch-{prefix}"
    client = redis.Redis.from_url(redis_url, decode_responses=True, client_name=name)
    watcher = LogWatcher(client)
    keys = [f"{prefix}:{{m:{i}}}:log" for i in range(10)]
    for key in keys:
        redis_client.xadd(key, {"event": "1"}, id="1-0")
    woken: dict[int, float] = {}

    def watch(i: int) -> None:
        watcher.wait(keys[i % 10], 1, 10)
        woken[i] = time.monotonic()

    threads = [threading.Thread(target=watch, args=(i,)) for i in range(100)]
    for t in threads:
        t.start()
    deadline = time.monotonic() + 5
    while watcher.watched() < 100 and time.monotonic() < deadline:
        time.sleep(0.01)
    assert watcher.watched() == 100
    time.sleep(0.3)  # the reader has joined every log
    assert not woken and _connections(redis_client, name) == 1
    reads = watcher.reads
    appended = time.monotonic()
    for key in keys:
        redis_client.xadd(key, {"event": "2"}, id="2-0")
    for t in threads:
        t.join(5)
    assert len(woken) == 100
    assert max(woken.values()) - appended < 1.0
    assert watcher.reads - reads <= 12  # a read for the appends, not one a watcher
    assert _connections(redis_client, name) == 1
    client.close()


def test_an_entry_appended_before_the_wait_wakes_it_at_once(redis_client, prefix):
    watcher = LogWatcher(redis_client)
    key = f"{prefix}:{{m:x}}:log"
    redis_client.xadd(key, {"event": "1"}, id="1-0")
    redis_client.xadd(key, {"event": "2"}, id="2-0")
    t0 = time.monotonic()
    assert watcher.wait(key, 1, 5) is True  # seen up to 1; 2 is already there: woken
    assert time.monotonic() - t0 < 1.0
    t0 = time.monotonic()
    assert watcher.wait(key, 2, 0.5) is False  # nothing past 2: the wait ends on time
    assert 0.45 <= time.monotonic() - t0 < 1.5
    assert watcher.watched() == 0


def test_a_log_watched_later_joins_and_the_others_stay_woken_by_their_own(redis_client, prefix):
    """A watcher of a log nobody watched yet is woken by that log's append
    (not by another's), even while the reader blocks on the first log."""
    watcher = LogWatcher(redis_client)
    first, second = f"{prefix}:{{m:a}}:log", f"{prefix}:{{m:b}}:log"
    redis_client.xadd(first, {"event": "1"}, id="1-0")
    redis_client.xadd(second, {"event": "1"}, id="1-0")
    done: dict[str, float] = {}

    def watch(key: str) -> None:
        watcher.wait(key, 1, 5)
        done[key] = time.monotonic()

    a = threading.Thread(target=watch, args=(first,))
    a.start()
    time.sleep(0.1)
    b = threading.Thread(target=watch, args=(second,))
    b.start()
    time.sleep(0.05)  # b may not have joined the reader's XREAD yet
    appended = time.monotonic()
    redis_client.xadd(second, {"event": "2"}, id="2-0")
    b.join(5)
    assert second in done and done[second] - appended < 0.6 and first not in done
    redis_client.xadd(first, {"event": "2"}, id="2-0")
    a.join(5)
    assert first in done
