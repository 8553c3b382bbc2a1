/* libmpgpu's timing aid (mpgpu.h): the kernel that holds a stream (stream_hold.cu). */
#include "mpgpu_internal.h"
#include "stream_hold.h"

mpgpu_status mpgpu_timing_hold_stream(int *d_flags, uint64_t timeout_ns, mpgpu_stream stream)
{
    if (!d_flags || timeout_ns == 0)
        return MPGPU_ERR_BAD_ARGUMENT;
    LIBMPGPU_TRY(stream_hold_launch(d_flags, timeout_ns, stream));
    return MPGPU_OK;
}
