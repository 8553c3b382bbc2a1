/* libmpgpu's version, status codes and the per-thread record of the last CUDA failure
 * (mpgpu.h), shared by every part of the API. */
#include "mpgpu_internal.h"

#include <stdint.h>

/* mpgpu.h spells cudaStream_t without the CUDA headers; the two must stay one type. */
_Static_assert(__builtin_types_compatible_p(mpgpu_stream, cudaStream_t),
               "mpgpu_stream is not cudaStream_t");

const char *mpgpu_version(void)
{
    return MPGPU_VERSION_STRING;
}

const char *mpgpu_status_string(mpgpu_status status)
{
    switch (status) {
    case MPGPU_OK:
        return "success";
    case MPGPU_ERR_BAD_ARGUMENT:
        return "bad argument: a NULL or misaligned pointer, overlapping buffers or a size that overflows";
    case MPGPU_ERR_UNKNOWN_METHOD:
        return "unknown method: no method has this name (see mpgpu_mul_method_get)";
    case MPGPU_ERR_UNSUPPORTED_SIZE:
        return "unsupported size: the method does not take operands of this many bits";
    case MPGPU_ERR_NO_DEVICE:
        return "no CUDA device, or no driver that can run this library";
    case MPGPU_ERR_OUT_OF_DEVICE_MEMORY:
        return "out of device memory";
    case MPGPU_ERR_CUDA:
        return "CUDA error (mpgpu_last_error says which call and which error)";
    case MPGPU_ERR_OUT_OF_HOST_MEMORY:
        return "out of host memory";
    case MPGPU_ERR_CANCELLED:
        return "cancelled: the caller's progress function asked the call to stop";
    }
    return "not an mpgpu_status value";
}

/* Per thread, so that a failure in one thread never shows up in another's report. */
static _Thread_local mpgpu_error_info last_error = {0, "", ""};

void mpgpu_last_error(mpgpu_error_info *info)
{
    *info = last_error;
}

mpgpu_status libmpgpu_cuda_failure(cudaError_t err, const char *call)
{
    last_error.cuda_error = (int)err;
    last_error.cuda_error_string = cudaGetErrorString(err);
    last_error.cuda_call = call;
    switch (err) {
    case cudaErrorNoDevice:
    case cudaErrorInsufficientDriver:
        return MPGPU_ERR_NO_DEVICE;
    case cudaErrorMemoryAllocation:
        return MPGPU_ERR_OUT_OF_DEVICE_MEMORY;
    default:
        return MPGPU_ERR_CUDA;
    }
}

int libmpgpu_overlap(const void *p, size_t p_bytes, const void *q, size_t q_bytes)
{
    uintptr_t a = (uintptr_t)p, b = (uintptr_t)q;
    return a < b + q_bytes && b < a + p_bytes;
}
