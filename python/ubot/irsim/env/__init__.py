from .env_base import EnvBase  # noqa: F401
