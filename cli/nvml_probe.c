#include "nvml_probe.h"

#include <dlfcn.h>
#include <stdio.h>
#include <string.h>
#include <cuda_runtime_api.h>

/* NVML's ABI, as nvml.h declares it: functions return 0 (NVML_SUCCESS) on success; a device is
 * an opaque pointer. Only what is read here is declared, so that no NVML header is needed. */
typedef int (*nvml_init_fn)(void);
typedef int (*nvml_by_bus_fn)(const char *bus_id, void **device);
typedef int (*nvml_clock_fn)(void *device, int clock_type, unsigned *mhz);
typedef int (*nvml_temp_fn)(void *device, int sensor, unsigned *celsius);
typedef int (*nvml_power_fn)(void *device, unsigned *milliwatts);
typedef int (*nvml_reasons_fn)(void *device, unsigned long long *reasons);

enum { NVML_CLOCK_SM = 1, NVML_CLOCK_MEM = 2, NVML_TEMPERATURE_GPU = 0 };

static struct {
    bool tried, open;
    void *device;
    nvml_clock_fn clock;
    nvml_temp_fn temperature;
    nvml_power_fn power;
    nvml_reasons_fn reasons;
} nvml;

bool nvml_open(int cuda_device)
{
    if (nvml.tried)
        return nvml.open;
    nvml.tried = true;
    char bus_id[32];
    if (cudaDeviceGetPCIBusId(bus_id, sizeof bus_id, cuda_device) != cudaSuccess)
        return false;
    /* Kept open for the process's life: the readings are taken until its end. */
    void *lib = dlopen("libnvidia-ml.so.1", RTLD_NOW | RTLD_LOCAL);
    if (!lib)
        return false;
    nvml_init_fn init = (nvml_init_fn)dlsym(lib, "nvmlInit_v2");
    nvml_by_bus_fn by_bus = (nvml_by_bus_fn)dlsym(lib, "nvmlDeviceGetHandleByPciBusId_v2");
    nvml.clock = (nvml_clock_fn)dlsym(lib, "nvmlDeviceGetClockInfo");
    nvml.temperature = (nvml_temp_fn)dlsym(lib, "nvmlDeviceGetTemperature");
    nvml.power = (nvml_power_fn)dlsym(lib, "nvmlDeviceGetPowerUsage");
    /* Drivers from 535 on call them clock event reasons; the older name stays as an alias. */
    nvml.reasons = (nvml_reasons_fn)dlsym(lib, "nvmlDeviceGetCurrentClocksEventReasons");
    if (!nvml.reasons)
        nvml.reasons = (nvml_reasons_fn)dlsym(lib, "nvmlDeviceGetCurrentClocksThrottleReasons");
    if (!init || !by_bus || !nvml.clock || init() != 0 || by_bus(bus_id, &nvml.device) != 0) {
        dlclose(lib);
        return false;
    }
    nvml.open = true;
    return true;
}

bool nvml_available(void)
{
    return nvml.open;
}

void nvml_read(struct nvml_sample *s)
{
    memset(s, 0, sizeof *s);
    if (!nvml.open)
        return;
    s->valid = nvml.clock(nvml.device, NVML_CLOCK_SM, &s->sm_mhz) == 0 &&
               nvml.clock(nvml.device, NVML_CLOCK_MEM, &s->mem_mhz) == 0;
    if (nvml.temperature && nvml.temperature(nvml.device, NVML_TEMPERATURE_GPU, &s->temp_c) != 0)
        s->temp_c = 0;
    unsigned mw = 0;
    if (nvml.power && nvml.power(nvml.device, &mw) == 0)
        s->power_w = mw * 1e-3;
}

bool nvml_reasons(unsigned long long *reasons)
{
    *reasons = 0;
    return nvml.open && nvml.reasons && nvml.reasons(nvml.device, reasons) == 0;
}

const char *nvml_reason_names(unsigned long long reasons, char *out, size_t len)
{
    static const struct {
        unsigned long long bit;
        const char *name;
    } names[] = {{0x4, "sw_power_cap"}, {0x8, "hw_slowdown"}, {0x20, "sw_thermal"},
                 {0x40, "hw_thermal"}, {0x80, "hw_power_brake"}};
    size_t used = 0;
    out[0] = '\0';
    for (size_t i = 0; i < sizeof names / sizeof names[0]; i++)
        if (reasons & names[i].bit && used < len)
            used += (size_t)snprintf(out + used, len - used, "%s%s", used ? "/" : "", names[i].name);
    return out;
}
