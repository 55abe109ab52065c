"""Pictures for ``render``/``save_figure``/``save_ani``: ubot draws them off-screen (Cairo).

Nothing is drawn unless a frame is kept: ``render()`` in a headless run with ``save_ani``
off costs one counter increment. Frames go where IR-SIM puts them (beside the script:
``animation_buffer/``, ``animation/``, ``figure/``).
"""

import glob
import os
import sys


def output_dirs() -> dict:
    base = sys.path[0] or os.getcwd()
    return {
        "buffer": os.path.join(base, "animation_buffer"),
        "animation": os.path.join(base, "animation"),
        "figure": os.path.join(base, "figure"),
    }


def write_picture(sim, path: str) -> None:
    """The world's picture at ``path``; formats other than PNG are converted with Pillow."""
    os.makedirs(os.path.dirname(os.path.abspath(path)), exist_ok=True)
    if path.lower().endswith(".png"):
        sim.write_picture(path)
        return
    try:
        from PIL import Image
    except ImportError as err:
        raise RuntimeError(f"saving {path}: only PNG without Pillow (python3-pil)") from err
    Image.fromarray(sim.picture(), "RGBA").convert("RGB").save(path)


def assemble_animation(frames_dir: str, out_path: str, frame_ms: int = 100,
                       remove_frames: bool = True) -> str | None:
    """Joins the PNG frames of ``frames_dir`` into a GIF; returns the file written, or None
    when there are no frames. Without Pillow the frames are kept and their folder returned."""
    frames = sorted(glob.glob(os.path.join(frames_dir, "*.png")))
    if not frames:
        return None
    try:
        from PIL import Image
    except ImportError:
        return frames_dir
    os.makedirs(os.path.dirname(os.path.abspath(out_path)), exist_ok=True)
    images = [Image.open(f).convert("RGB") for f in frames]
    images[0].save(out_path, save_all=True, append_images=images[1:], duration=frame_ms, loop=0)
    for image in images:
        image.close()
    if remove_frames:
        for f in frames:
            os.remove(f)
    return out_path


class Viewer:
    """Shows the picture in a matplotlib window when there is a display (optional)."""

    def __init__(self):
        self._plt = None
        self._image = None
        if not os.environ.get("DISPLAY") and not os.environ.get("WAYLAND_DISPLAY"):
            return
        try:
            import matplotlib
            import matplotlib.pyplot as plt
        except ImportError:
            return
        if matplotlib.get_backend().lower() in ("agg", "pdf", "svg", "ps", "cairo", "template"):
            return
        self._plt = plt

    def __bool__(self) -> bool:
        return self._plt is not None

    def show(self, sim, interval: float) -> None:
        picture = sim.picture()
        if self._image is None:
            self._plt.figure("ubot.irsim")
            self._image = self._plt.imshow(picture)
            self._plt.axis("off")
        else:
            self._image.set_data(picture)
        self._plt.pause(max(interval, 1e-3))

    def close(self) -> None:
        if self._plt is not None:
            self._plt.close("all")
