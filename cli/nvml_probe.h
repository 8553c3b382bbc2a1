/* The GPU's clocks, temperature, power and throttle reasons, read through NVML, which is loaded at
 * run time from the driver (dlopen "libnvidia-ml.so.1"): mpgpu neither builds nor links against
 * it, and where it is missing (no driver, the cpu machine) every reading is simply invalid. */
#ifndef MPGPU_NVML_PROBE_H
#define MPGPU_NVML_PROBE_H

#include <stdbool.h>
#include <stddef.h>

/* One reading of the device's state. */
struct nvml_sample {
    bool valid;              /* false: no NVML, or the device is not NVML's */
    unsigned sm_mhz, mem_mhz; /* current clocks */
    unsigned temp_c;
    double power_w;
};

/* What a row records: the state at its start and end, and the throttle reasons sampled after
 * each timed repetition. */
struct nvml_row {
    struct nvml_sample start, end;
    bool reasons_read;           /* the reasons could be read (else the next two mean nothing) */
    unsigned throttled_samples;  /* repetitions after which a throttling reason was active */
    unsigned long long reasons;  /* the throttling reasons seen, NVML's bits (NVML_THROTTLING) */
};

/* The reasons that slow the clocks below what was asked for: power cap, thermal and hardware
 * slowdowns (nvmlClocksEventReason* 0x4, 0x8, 0x20, 0x40, 0x80). Idle, application clocks, sync
 * boost and display clocks are not throttling. */
#define NVML_THROTTLING 0xecull

/* Opens NVML for the CUDA device (matched by PCI bus id, as NVML numbers devices its own way).
 * Returns false, silently, when NVML or the device cannot be had; the reads then give invalid
 * readings. Once per process; a second call for another device is ignored. */
bool nvml_open(int cuda_device);
bool nvml_available(void);

void nvml_read(struct nvml_sample *s);
/* The current clock event (throttle) reasons; false when they cannot be read. */
bool nvml_reasons(unsigned long long *reasons);
/* The names of the throttling bits of reasons, joined by '/' ("sw_power_cap/hw_thermal");
 * "" for none. Returns out. */
const char *nvml_reason_names(unsigned long long reasons, char *out, size_t len);

#endif
