"""Simulation.serve (docs/live.md, "From Python"): the live page and the Foxglove protocol follow
sim.step(); a client's teleop drives its robot over the step's own commands; a client's pause
holds step(); loopback unless a token is given. The client is the `websockets` package (PyPI)."""

import asyncio
import json
import struct
import threading
import urllib.error
import urllib.request

import numpy as np
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


def set_paused(ws, paused, wait=True):
    """Pauses or plays the run as the page does; waits for the server's parameterValues."""
    ws.send(json.dumps({"op": "setParameters", "id": "p",
                        "parameters": [{"name": "/ubot/paused", "value": paused}]}))
    while wait and json.loads(ws.recv(timeout=5)).get("op") != "parameterValues":
        pass


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
        # The subscription reaches the server's thread after send() returns (there is no
        # acknowledgement in the protocol): steps are taken until a frame comes, each a little
        # apart, for up to 5 s (a loaded CI machine), and the frame is of one of those steps.
        frame = None
        while frame is None and sim.step_count < 500:
            sim.step()
            try:
                frame = json.loads(next_message(ws, 1, timeout=0.01))
            except TimeoutError:
                pass
        assert frame is not None, "no frame in 500 steps"
        assert 1 <= frame["step"] <= sim.step_count
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
        set_paused(ws, True)
        stepped = threading.Event()
        worker = threading.Thread(target=lambda: (sim.step(), stepped.set()))
        worker.start()
        assert not stepped.wait(0.5), "step() ran while a client paused the run"
        set_paused(ws, False, wait=False)
        assert stepped.wait(5), "step() did not go on after play"
        worker.join()
        assert sim.step_count == 1
        ws.close()


def test_a_page_opened_on_a_paused_run_gets_the_world_at_once():
    """The page draws from /ubot/markers, which comes with steps: a client that starts watching
    while the run is paused gets the resting step's markers (and frame) without a step."""
    with ubot.Simulation(WORLD) as sim:
        ws, _ = connect(sim.serve("127.0.0.1:0"))
        set_paused(ws, True)
        worker = threading.Thread(target=sim.step)  # waits, paused
        worker.start()
        page, channels = connect(sim.live_url)
        page.send(json.dumps({"op": "subscribe", "subscriptions": [
            {"id": 1, "channelId": channels["/ubot/markers"]},
            {"id": 2, "channelId": channels["/ubot/frame"]}]}))
        markers = next_message(page, 1)
        assert markers[:4] == b"\x00\x01\x00\x00" and len(markers) > 100  # CDR, little-endian
        assert json.loads(next_message(page, 2))["paused"] is True
        assert worker.is_alive()  # still paused: shown without a step
        set_paused(ws, False, wait=False)
        worker.join(5)
        assert sim.step_count == 1
        ws.close()
        page.close()


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


def vector_env(num_envs=3):
    return ubot.VectorEnv(WORLD, num_envs=num_envs, seed=1, max_steps=0,
                          observations=("state", "velocity"))


def test_a_vector_env_serves_the_env_it_is_told_and_a_client_drives_only_that_one():
    envs = vector_env()
    envs.reset()
    url = envs.serve("127.0.0.1:0", env=1)
    assert envs.live_url == url
    ws, channels = connect(url)
    ws.send(json.dumps({"op": "advertise", "channels": [
        {"id": 9, "topic": "/rover/cmd_vel", "encoding": "json",
         "schemaName": "geometry_msgs/msg/Twist"}]}))
    twist = json.dumps({"linear": {"x": 0.3}, "angular": {"z": 0.5}}).encode()
    actions = np.zeros((3, 2, 2))
    actions[:, 0] = [1.0, 0.0]
    rover = envs.robot_names.index("rover")
    for _ in range(100):
        ws.send(b"\x01" + struct.pack("<I", 9) + twist)
        obs, *_ = envs.step(actions)
        if list(obs["velocity"][1, rover]) == [0.3, 0.5]:
            break
    velocity = obs["velocity"][:, rover].tolist()
    assert velocity[1] == pytest.approx([0.3, 0.5])  # the served env: the client's command
    assert velocity[0] == velocity[2] == [1.0, 0.0]  # the others: the actions
    ws.send(json.dumps({"op": "subscribe",
                        "subscriptions": [{"id": 1, "channelId": channels["/ubot/frame"]}]}))
    before = envs.episode_steps(1)
    frame = None
    # Frames are paced (at most 30 a second of wall time): step on until one comes.
    for _ in range(100):
        envs.step(actions)
        try:
            frame = json.loads(next_message(ws, 1, timeout=0.05))
            break
        except TimeoutError:
            pass
    assert frame is not None, "no /ubot/frame for the served env's steps"
    assert before < frame["step"] <= envs.episode_steps(1)
    ws.close()
    envs.close()
    assert envs.live_url is None


def test_a_clients_pause_holds_every_env_of_a_vector_env():
    envs = vector_env(2)
    envs.reset()
    ws, _ = connect(envs.serve("127.0.0.1:0"))
    ws.send(json.dumps({"op": "setParameters", "id": "p",
                        "parameters": [{"name": "/ubot/paused", "value": True}]}))
    while json.loads(ws.recv(timeout=5)).get("op") != "parameterValues":
        pass
    stepped = threading.Event()
    worker = threading.Thread(target=lambda: (envs.step(np.zeros((2, 2, 2))), stepped.set()))
    worker.start()
    assert not stepped.wait(0.5), "VectorEnv.step() ran while a client paused the run"
    ws.send(json.dumps({"op": "setParameters",
                        "parameters": [{"name": "/ubot/paused", "value": False}]}))
    assert stepped.wait(5), "VectorEnv.step() did not go on after play"
    worker.join()
    assert envs.episode_steps(0) == envs.episode_steps(1) == 1
    ws.close()
    envs.close()


def test_a_vector_env_refuses_an_env_it_does_not_have_and_a_second_server(monkeypatch):
    monkeypatch.delenv("UBOT_LIVE_TOKEN", raising=False)
    envs = vector_env(2)
    with pytest.raises(ValueError, match=r"env must be in \[0, 2\), got 2"):
        envs.serve("127.0.0.1:0", env=2)
    with pytest.raises(ubot.Error, match="token"):
        envs.serve("0.0.0.0:0")
    envs.serve("127.0.0.1:0")
    with pytest.raises(ValueError, match="already serving"):
        envs.serve("127.0.0.1:0")
    envs.close()
