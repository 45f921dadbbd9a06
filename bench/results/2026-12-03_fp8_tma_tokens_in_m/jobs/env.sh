R=$OUT/r; mkdir -p $R
trap 'cd $OUT && tar czf r.tgz r && rm -rf r' EXIT
ROOT=$PWD
NCCL_ROOT=""
if [ ! -f /usr/local/cuda/include/nccl_device.h ]; then
  NCCL_ROOT="$(python3 -c 'import nvidia.nccl, os; print(nvidia.nccl.__path__[0])' 2>/dev/null || true)"
fi
[ -n "$NCCL_ROOT" ] && export MEGAMOE_NCCL_LIBRARY="$NCCL_ROOT/lib/libnccl.so.2"
BN=$ROOT/build-dn; BB=$ROOT/build-db
