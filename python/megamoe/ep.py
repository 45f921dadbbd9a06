"""Expert parallelism: the communicator MoE layers exchange tokens over (NCCL).

    import torch.distributed as dist, megamoe
    dist.init_process_group("nccl")                      # e.g. under torchrun
    torch.cuda.set_device(int(os.environ["LOCAL_RANK"]))
    group = megamoe.EpGroup.from_torch()                 # collective over the process group
    layer = megamoe.MoELayer(E, K, H, I, ep_group=group, max_tokens=4096)   # collective
    layer.prepare_weights(w13_local, w2_local)           # this rank's experts only
    out = layer(x, topk_ids, topk_weights)               # every rank calls it, even with T = 0
    layer.check_errors()                                 # raises megamoe.CommError after a timeout

Without torch.distributed, one rank makes an id with ``EpGroup.new_unique_id()``, shares the
128 bytes with the others (MPI, a file, a store) and every rank calls
``EpGroup.create(unique_id, rank, size, device)``.

Rules: every rank constructs, prepares, calls and destroys its layers in the same order
(construction and destruction register and release NCCL memory windows collectively), and
every rank calls forward for each step, also with zero tokens. Only builds with NCCL (CUDA
builds where NCCL was found) support groups: ``EpGroup.available()`` says whether this one does;
elsewhere ``create`` raises NotImplementedError. The CPU reference backend simulates expert
parallelism without a group (``MoELayer(..., ep_rank=r, ep_size=R)``).
"""

from __future__ import annotations

import os
import sys
from typing import Any, Optional, Sequence

from . import _C
from ._args import _int

#: Size in bytes of a unique id (NCCL's ncclUniqueId).
UNIQUE_ID_BYTES: int = 128


def _cuda_device(device: Any, what: str) -> int:
    """A CUDA device ordinal from None (the current device), an int, 'cuda[:N]' or a torch.device."""
    from .layer import resolve_device

    if device is None:
        torch = sys.modules.get("torch")
        if torch is not None and torch.cuda.is_available():
            return int(torch.cuda.current_device())
        return int(_C.cuda_current_device())
    d = resolve_device(device)
    if d < 0:
        raise ValueError(
            f"megamoe: argument '{what}': expected a CUDA device (an EP group runs on a GPU), got {device!r}"
        )
    return d


def _point_at_pip_nccl() -> None:
    """megamoe loads libnccl.so.2 at run time (it does not link it). When the user chose no
    library (MEGAMOE_NCCL_LIBRARY), none is loaded in this process yet (PyTorch loads its own
    when it first uses NCCL) and the nvidia-nccl-cu13 pip package (what PyTorch depends on) is
    installed, use that package's library: it is often the only NCCL on a machine."""
    if os.environ.get("MEGAMOE_NCCL_LIBRARY"):
        return
    try:
        with open("/proc/self/maps") as f:
            if "libnccl.so" in f.read():
                return  # the loader's search for libnccl.so.2 finds the loaded copy
    except OSError:
        pass
    try:
        import importlib.util

        spec = importlib.util.find_spec("nvidia.nccl")
    except (ImportError, ValueError):
        return
    for base in (spec.submodule_search_locations or []) if spec is not None else []:
        lib = os.path.join(base, "lib", "libnccl.so.2")
        if os.path.exists(lib):
            os.environ["MEGAMOE_NCCL_LIBRARY"] = lib
            return


def _require_available() -> None:
    _point_at_pip_nccl()
    if not _C.EpGroup.available():
        raise NotImplementedError(
            "megamoe: unsupported: expert-parallel groups need a megamoe build with CUDA and NCCL's headers and "
            f"libnccl.so.2 (NCCL >= 2.28) at run time: {_C.EpGroup.unavailable_reason()} "
            "(megamoe.EpGroup.available() is False). The cpu_reference backend simulates expert parallelism "
            "without a group: MoELayer(..., ep_rank=r, ep_size=R, device='cpu')"
        )


class EpGroup:
    """A group of ranks (one GPU each) that expert-parallel MoE layers exchange tokens over.

    Make one with ``EpGroup.from_torch()`` (a torch.distributed process group) or
    ``EpGroup.create(EpGroup.new_unique_id() shared by rank 0, rank, size, device)``; pass it to
    ``MoELayer(..., ep_group=group)``. A layer keeps its group alive. Groups own their NCCL
    communicator and destroy it when the last reference (the group or a layer) goes.
    """

    __slots__ = ("_impl", "__weakref__")

    def __init__(self, impl: Any) -> None:
        if not isinstance(impl, _C.EpGroup):
            raise TypeError(
                "megamoe: EpGroup(...) is not called directly; use EpGroup.from_torch(), EpGroup.create() or "
                "EpGroup.shrink()"
            )
        self._impl = impl

    # ---- construction ---------------------------------------------------------------------
    @staticmethod
    def available() -> bool:
        """True when expert-parallel groups work here: the build has CUDA and NCCL's headers, and
        libnccl.so.2 (NCCL >= 2.28) loads at run time ($MEGAMOE_NCCL_LIBRARY, a copy already
        loaded, the loader's search path, or the nvidia-nccl-cu13 pip package)."""
        _point_at_pip_nccl()
        return bool(_C.EpGroup.available())

    @staticmethod
    def unavailable_reason() -> str:
        """Why ``available()`` is False ("" when it is True)."""
        _point_at_pip_nccl()
        return str(_C.EpGroup.unavailable_reason())

    @staticmethod
    def new_unique_id() -> bytes:
        """A fresh 128-byte id (ncclGetUniqueId). Call it on one rank and give the bytes to every
        rank's ``create``. Raises NotImplementedError when ``available()`` is False."""
        _require_available()
        return bytes(_C.EpGroup.new_unique_id())

    @classmethod
    def create(cls, unique_id: bytes, rank: int, size: int, device: Any = None) -> "EpGroup":
        """Collective over ``size`` processes: this process becomes ``rank`` of the group.

        Args:
            unique_id: the 128 bytes rank 0 (or any one process) got from ``new_unique_id()``.
            rank: this process's rank in [0, size).
            size: number of ranks (processes, one GPU each).
            device: this rank's CUDA device: None (the current device), an int, "cuda:N" or a
                torch.device.

        Blocks until every rank has called it (the GIL is released meanwhile). Raises ValueError
        for a bad argument and NotImplementedError when ``available()`` is False.
        """
        if not isinstance(unique_id, (bytes, bytearray, memoryview)):
            raise TypeError(
                f"megamoe: argument 'unique_id': expected bytes (from EpGroup.new_unique_id()), got "
                f"{type(unique_id).__name__}"
            )
        uid = bytes(unique_id)
        if len(uid) != UNIQUE_ID_BYTES:
            raise ValueError(
                f"megamoe: argument 'unique_id': expected {UNIQUE_ID_BYTES} bytes (from EpGroup.new_unique_id()), "
                f"got {len(uid)} bytes"
            )
        rank = _int("rank", rank, 32)
        size = _int("size", size, 32)
        if size < 1:
            raise ValueError(f"megamoe: argument 'size': expected a positive integer, got {size}")
        if not 0 <= rank < size:
            raise ValueError(f"megamoe: argument 'rank': expected a value in [0, size={size}), got {rank}")
        _require_available()
        return cls(_C.EpGroup.create(uid, rank, size, _cuda_device(device, "device")))

    @classmethod
    def from_torch(cls, group: Any = None, device: Any = None) -> "EpGroup":
        """Collective over a torch.distributed process group (e.g. under torchrun): a group of
        the same ranks, in the same order.

        The group's rank 0 makes the id, ``torch.distributed.broadcast_object_list`` sends it to
        the other ranks, and every rank calls ``create(id, group rank, group size, device)``.

        Args:
            group: the process group (None: the default group). Every rank of it must call this.
            device: this rank's CUDA device (None: ``torch.cuda.current_device()``; set it with
                ``torch.cuda.set_device`` first, as NCCL process groups need anyway).

        Raises RuntimeError when torch.distributed is not initialised, NotImplementedError when
        ``available()`` is False (on every rank alike, before any communication).
        """
        import torch
        import torch.distributed as dist

        if not dist.is_available() or not dist.is_initialized():
            raise RuntimeError(
                "megamoe: EpGroup.from_torch: torch.distributed is not initialised; call "
                "torch.distributed.init_process_group() first (e.g. under torchrun)"
            )
        _require_available()
        if device is None:
            if not torch.cuda.is_available():
                raise RuntimeError("megamoe: EpGroup.from_torch: torch sees no CUDA device")
            dev = int(torch.cuda.current_device())
        else:
            dev = _cuda_device(device, "device")
        rank = dist.get_rank(group)
        size = dist.get_world_size(group)
        if rank < 0:
            raise ValueError("megamoe: EpGroup.from_torch: this process is not a member of `group`")
        src = 0
        if group is not None:
            get_global_rank = getattr(dist, "get_global_rank", None) or getattr(dist, "_get_global_rank")
            src = int(get_global_rank(group, 0))
        # Rank 0 sends ("ok", id) or ("error", message): when it cannot make an id, the other
        # ranks raise the same error instead of waiting in create() for ever.
        msg: list = [None]
        if rank == 0:
            try:
                msg[0] = ("ok", cls.new_unique_id())
            except Exception as e:  # noqa: BLE001  (re-raised below, on every rank)
                msg[0] = ("error", f"{type(e).__name__}: {e}")
        with torch.cuda.device(dev):  # NCCL process groups move the object through the current device
            dist.broadcast_object_list(msg, src=src, group=group)
        status, payload = msg[0]
        if status != "ok":
            raise RuntimeError(f"megamoe: EpGroup.from_torch: rank 0 could not make the unique id: {payload}")
        return cls.create(payload, rank, size, dev)

    # ---- description ----------------------------------------------------------------------
    @property
    def rank(self) -> int:
        """This process's rank in the group."""
        return int(self._impl.rank)

    @property
    def size(self) -> int:
        """Number of ranks."""
        return int(self._impl.size)

    @property
    def device(self) -> int:
        """This rank's CUDA device ordinal."""
        return int(self._impl.device)

    @property
    def aborted(self) -> bool:
        """True once ``abort()`` was called."""
        return bool(self._impl.aborted)

    def __repr__(self) -> str:
        return f"EpGroup(rank={self.rank}, size={self.size}, device=cuda:{self.device}, aborted={self.aborted})"

    # ---- faults ---------------------------------------------------------------------------
    def abort(self) -> None:
        """Releases every kernel of this group's layers that waits on a peer (their layers'
        ``check_errors()`` then raise megamoe.CommError) and aborts the NCCL communicator. Safe
        to call from another thread while a forward is in flight. The group cannot be used for
        new work afterwards; survivors continue with ``shrink()``."""
        self._impl.abort()

    def shrink(self, exclude_ranks: Sequence[int]) -> "EpGroup":
        """Collective among the surviving ranks (every rank not in ``exclude_ranks`` calls it):
        a new group without ``exclude_ranks`` (ncclCommShrink). Ranks are renumbered densely in
        their old order. Layers are not carried over: build new ones on the new group, with an
        ``expert_placement`` over the surviving ranks."""
        if isinstance(exclude_ranks, (str, bytes)) or not isinstance(exclude_ranks, Sequence):
            raise TypeError(
                "megamoe: argument 'exclude_ranks': expected a list of ranks, got " + type(exclude_ranks).__name__
            )
        ranks = [_int(f"exclude_ranks[{i}]", r) for i, r in enumerate(exclude_ranks)]
        for i, r in enumerate(ranks):
            if not 0 <= r < self.size:
                raise ValueError(
                    f"megamoe: argument 'exclude_ranks[{i}]': expected a rank in [0, {self.size}), got {r}"
                )
        return EpGroup(self._impl.shrink(ranks))


__all__ = ["EpGroup", "UNIQUE_ID_BYTES"]
