"""Simulation.serve (docs/live.md, "From Python"): the live page and the Foxglove protocol follow
sim.step(); a client's teleop drives its robot over the step's own commands; a client's pause
holds step(); loopback unless a token is given. The client is the `websockets` package (PyPI)."""

import asyncio
import json
import struct
import threading
import urllib.error
import urllib.request

import pytest

import ubot
from conftest import SOURCE_DIR

websockets = pytest.importorskip("websockets.sync.client")

WORLD = f"{SOURCE_DIR}/tests/data/live_world.yaml"
PROTOCOL = "foxglove.websocket.v1"


def connect(url):
    # Closed by each test (websockets' sync client; legacy=True: without a `with` block).
    ws = websockets.connect(url.replace("http://", "ws://"), subprotocols=[PROTOCOL],
                            open_timeout=5, legacy=True)
    info = json.loads(ws.recv(timeout=5))
    assert info["op"] == "serverInfo"
    channels = {}
    while "/ubot/frame" not in channels:
        m = json.loads(ws.recv(timeout=5))
        if m["op"] == "advertise":
            channels.update({c["topic"]: c["id"] for c in m["channels"]})
    return ws, channels


def next_message(ws, subscription, timeout=5):
    while True:
        m = ws.recv(timeout=timeout)
        if isinstance(m, bytes) and m[0] == 1 and struct.unpack_from("<I", m, 1)[0] == subscription:
            return m[13:]


def test_the_page_and_protocol_follow_step():
    with ubot.Simulation(WORLD) as sim:
        url = sim.serve("127.0.0.1:0")
        assert sim.live_url == url and url.startswith("http://127.0.0.1:")
        with urllib.request.urlopen(url, timeout=5) as page:
            assert b"live.js" in page.read()
        ws, channels = connect(url)
        ws.send(json.dumps({"op": "subscribe",
                            "subscriptions": [{"id": 1, "channelId": channels["/ubot/frame"]}]}))
        for _ in range(3):
            sim.step()
        frame = json.loads(next_message(ws, 1))
        assert 1 <= frame["step"] <= 3
        ws.close()


def test_a_client_drives_its_robot_over_the_steps_commands():
    with ubot.Simulation(WORLD) as sim:
        ws, channels = connect(sim.serve("127.0.0.1:0"))
        ws.send(json.dumps({"op": "advertise", "channels": [
            {"id": 9, "topic": "/rover/cmd_vel", "encoding": "json",
             "schemaName": "geometry_msgs/msg/Twist"}]}))
        twist = json.dumps({"linear": {"x": 0.3}, "angular": {"z": 0.5}}).encode()
        # Sent every step, as a teleop panel does; the robot gets there within its acceleration
        # limits. A message reaches the server's thread first, then the next step takes it.
        for _ in range(100):
            ws.send(b"\x01" + struct.pack("<I", 9) + twist)
            sim.step({"rover": [1.0, 0.0], "mover": [0.2, 0.0]})
            if list(sim.object("rover").velocity) == [0.3, 0.5]:
                break
        assert list(sim.object("rover").velocity) == [0.3, 0.5]
        assert list(sim.object("mover").velocity) == [0.2, 0.0]  # the step's own command
        ws.close()


def test_a_clients_pause_holds_step_until_it_plays():
    with ubot.Simulation(WORLD) as sim:
        ws, _ = connect(sim.serve("127.0.0.1:0"))
        ws.send(json.dumps({"op": "setParameters", "id": "p",
                            "parameters": [{"name": "/ubot/paused", "value": True}]}))
        while json.loads(ws.recv(timeout=5)).get("op") != "parameterValues":
            pass
        stepped = threading.Event()
        worker = threading.Thread(target=lambda: (sim.step(), stepped.set()))
        worker.start()
        assert not stepped.wait(0.5), "step() ran while a client paused the run"
        ws.send(json.dumps({"op": "setParameters",
                            "parameters": [{"name": "/ubot/paused", "value": False}]}))
        assert stepped.wait(5), "step() did not go on after play"
        worker.join()
        assert sim.step_count == 1
        ws.close()


def test_serving_elsewhere_needs_a_token(monkeypatch):
    monkeypatch.delenv("UBOT_LIVE_TOKEN", raising=False)
    with ubot.Simulation(WORLD) as sim:
        with pytest.raises(ubot.Error, match=r"serve\(\.\.\., token=TOKEN\) or UBOT_LIVE_TOKEN"):
            sim.serve("0.0.0.0:0")
        url = sim.serve("0.0.0.0:0", token="t0ken")
        assert url.endswith("?token=t0ken")
        port = url.split(":")[2].split("/")[0]
        with pytest.raises(urllib.error.HTTPError) as refused:
            urllib.request.urlopen(f"http://127.0.0.1:{port}/", timeout=5)
        assert refused.value.code == 401
        with pytest.raises(ubot.Error, match="already serving"):
            sim.serve("127.0.0.1:0")
