from .object_base import ObjectBase, ObjectInfo  # noqa: F401
