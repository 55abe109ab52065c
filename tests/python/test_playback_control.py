"""`ubot play --live` steered by Foxglove's playback control (docs/live.md, "Replaying a
recording"), beside the Foxglove SDK's own server (PyPI foxglove-sdk): no Foxglove client library
implements the playback control capability (the Foxglove app does), so the SDK's server is the
peer. The same request bytes go to both; the SDK parses them as the test meant, and ubot's
answer has the bytes of the SDK's for the same state. Then ubot's playback itself: pause stops
its clock, play runs it at the asked speed, a seek outside the recording is refused and still
answered, and the end is reported as ended. The client is the `websockets` package."""

import json
import os
import struct
import subprocess
import time

import pytest

import ubot
from conftest import SOURCE_DIR

foxglove = pytest.importorskip("foxglove")
websockets = pytest.importorskip("websockets.sync.client")

WORLD = f"{SOURCE_DIR}/tests/data/live_world.yaml"
SDK_PROTOCOL = "foxglove.sdk.v1"  # the only one the SDK's server accepts
PLAY, PAUSE = 0, 1
PLAYING, PAUSED, ENDED = 0, 1, 3


def request(command, speed, seek_ns, request_id):
    """A Playback Control Request as the protocol lays it out (little endian)."""
    rid = request_id.encode()
    return struct.pack("<BBfBQI", 3, command, speed, seek_ns is not None, seek_ns or 0,
                       len(rid)) + rid


def parse_state(frame):
    assert frame[0] == 5
    status, current, speed, did_seek, size = struct.unpack_from("<BQfBI", frame, 1)
    return {"status": status, "t": current, "speed": speed, "did_seek": bool(did_seek),
            "request_id": frame[19:19 + size].decode()}


def open_client(port, protocol=SDK_PROTOCOL):
    ws = websockets.connect(f"ws://127.0.0.1:{port}/", subprotocols=[protocol], open_timeout=5,
                            legacy=True)
    info = json.loads(ws.recv(timeout=5))
    assert info["op"] == "serverInfo"
    return ws, info


def frames_until(ws, test, timeout=5.0):
    """Every frame received until one passes `test` (the last one); TimeoutError otherwise."""
    seen, end = [], time.monotonic() + timeout
    while True:
        m = ws.recv(timeout=max(0.01, end - time.monotonic()))
        seen.append(m)
        if test(m):
            return seen


def is_state(request_id=None):
    return lambda m: (isinstance(m, bytes) and m[0] == 5 and
                      (request_id is None or parse_state(m)["request_id"] == request_id))


def latest_time(ws, wait=0.3):
    """The last Time frame's timestamp within `wait` seconds (None: none came)."""
    t, end = None, time.monotonic() + wait
    while time.monotonic() < end:
        try:
            m = ws.recv(timeout=max(0.01, end - time.monotonic()))
        except TimeoutError:
            break
        if isinstance(m, bytes) and m[0] == 2:
            t = struct.unpack_from("<Q", m, 1)[0]
    return t


@pytest.fixture(scope="module")
def recording(tmp_path_factory):
    cli = os.environ.get("UBOT_BIN")
    if not cli:
        pytest.skip("UBOT_BIN (the CLI) is not set")
    out = tmp_path_factory.mktemp("playback")
    mcap = out / "run.mcap"
    subprocess.run([cli, "run", WORLD, "--steps", "80", "--mcap", str(mcap), "--out",
                    str(out / "run"), "--quiet", "--frames", "none"], check=True, timeout=120)
    return cli, str(mcap)


@pytest.fixture
def play(recording):
    cli, mcap = recording
    proc = subprocess.Popen([cli, "play", mcap, "--live", "127.0.0.1:0", "--speed", "1"],
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    try:
        while True:
            line = proc.stdout.readline()
            assert line, f"ubot play ended: {proc.stderr.read()}"
            if line.startswith("live view at "):
                break
        yield int(line.split(":")[-1].strip().rstrip("/"))
    finally:
        proc.terminate()
        proc.wait(timeout=10)


class Listener(foxglove.websocket.ServerListener):
    """The SDK server's side: records each request and answers with the state it asks for."""

    def __init__(self):
        self.requests = []

    def on_playback_control_request(self, r):
        self.requests.append(r)
        from foxglove.websocket import PlaybackCommand, PlaybackState, PlaybackStatus
        status = (PlaybackStatus.Paused if r.playback_command == PlaybackCommand.Pause
                  else PlaybackStatus.Playing)
        return PlaybackState(status=status, current_time=r.seek_time or 0,
                             playback_speed=r.playback_speed, did_seek=r.seek_time is not None,
                             request_id=r.request_id)


def test_the_server_info_and_answers_have_the_sdk_servers_bytes(play):
    ours, info = open_client(play)
    assert {"playbackControl", "parameters", "time"} <= set(info["capabilities"])
    span = (info["dataStartTime"]["sec"] * 10**9 + info["dataStartTime"]["nsec"],
            info["dataEndTime"]["sec"] * 10**9 + info["dataEndTime"]["nsec"])
    assert span[1] - span[0] == 4 * 10**9  # 80 steps of 0.05 s

    listener = Listener()
    sdk = foxglove.start_server(host="127.0.0.1", port=0, server_listener=listener,
                                playback_time_range=span)
    try:
        theirs, sdk_info = open_client(sdk.port)
        # The capability the SDK advertises for the range, and the range as it writes it.
        assert set(sdk_info["capabilities"]) <= set(info["capabilities"])
        for key in ("dataStartTime", "dataEndTime"):
            assert info[key] == sdk_info[key]

        seek = span[0] + 1_500_000_000
        frame = request(PAUSE, 2.5, seek, "pause-and-seek")
        ours.send(frame)
        theirs.send(frame)
        theirs_state = frames_until(theirs, is_state("pause-and-seek"))[-1]
        ours_state = frames_until(ours, is_state("pause-and-seek"))[-1]
        # The SDK read the bytes as meant ...
        (r,) = listener.requests
        assert (r.playback_command, r.playback_speed, r.seek_time, r.request_id) == (
            foxglove.websocket.PlaybackCommand.Pause, 2.5, seek, "pause-and-seek")
        # ... and ubot's answer, paused at the seek at speed 2.5, is the SDK's frame for it.
        assert ours_state == theirs_state
        assert parse_state(ours_state) == {"status": PAUSED, "t": seek, "speed": 2.5,
                                           "did_seek": True, "request_id": "pause-and-seek"}
        theirs.close()
    finally:
        sdk.stop()
    ours.close()


def test_play_pause_seek_and_the_end(play):
    ws, info = open_client(play)
    end = info["dataEndTime"]["sec"] * 10**9 + info["dataEndTime"]["nsec"]

    ws.send(request(PAUSE, 1.0, None, "p1"))
    frames_until(ws, is_state("p1"))
    held = latest_time(ws, 0.2)
    assert latest_time(ws, 0.4) in (None, held), "the clock moved while paused"

    ws.send(request(PLAY, 3.0, 500_000_000, "play-from-0.5s"))
    state = parse_state(frames_until(ws, is_state("play-from-0.5s"))[-1])
    assert state == {"status": PLAYING, "t": 500_000_000, "speed": 3.0, "did_seek": True,
                     "request_id": "play-from-0.5s"}
    before = latest_time(ws, 0.3)
    after = latest_time(ws, 0.5)
    assert before is not None and after is not None and after > before, "the clock did not run"
    # At 3x, 0.5 s of wall time is about 1.5 s of log time (1x would be 0.5 s); the recording's
    # 4 s are not reached.
    assert 0.75e9 < after - before < 2.25e9, (before, after)

    # A seek outside the recording: refused with a status, and the request still answered with
    # the state unchanged (paused).
    ws.send(request(PAUSE, 3.0, None, "p2"))
    paused_at = parse_state(frames_until(ws, is_state("p2"))[-1])["t"]
    ws.send(request(PLAY, 3.0, end + 1, "too-far"))
    seen = frames_until(ws, is_state("too-far"))
    statuses = [json.loads(m)["message"] for m in seen if isinstance(m, str) and '"status"' in m]
    assert any("not in the recording" in s for s in statuses), statuses
    assert parse_state(seen[-1])["status"] == PAUSED
    assert parse_state(seen[-1])["t"] == paused_at

    # As fast as the server goes: the playback reaches the end and says so.
    ws.send(request(PLAY, 1000.0, None, "fast"))
    ended = frames_until(ws, lambda m: is_state()(m) and parse_state(m)["status"] == ENDED,
                         timeout=10)
    assert parse_state(ended[-1])["t"] == end
    ws.close()


def test_a_bad_request_is_refused_with_the_reason(play):
    ws, _ = open_client(play)
    ws.send(request(PLAY, float("nan"), None, "nan"))
    seen = frames_until(ws, is_state("nan"))
    assert any(isinstance(m, str) and "must be a number in [0, 1000]" in m for m in seen), seen
    ws.send(struct.pack("<BB", 3, 0))  # cut short
    seen = frames_until(ws, lambda m: isinstance(m, str) and "playback control request" in m)
    assert "fewer than the 19" in seen[-1]
    ws.close()


def test_a_live_run_has_no_playback_control():
    with ubot.Simulation(WORLD) as sim:
        url = sim.serve("127.0.0.1:0")
        port = int(url.rstrip("/").split(":")[-1])
        ws, info = open_client(port, "foxglove.websocket.v1")
        assert "playbackControl" not in info["capabilities"] and "dataStartTime" not in info
        ws.send(request(PAUSE, 1.0, None, "x"))
        seen = frames_until(ws, lambda m: isinstance(m, str) and "playback control" in m)
        assert "does not have the 'playbackControl' capability" in seen[-1]
        ws.close()
