#ifndef CPULSE_SHIM_H
#define CPULSE_SHIM_H
#include <pulse/pulseaudio.h>
#include <pulse/ext-stream-restore.h>
/* Cast macros are not imported by Swift: re-export them as constants. */
static const uint32_t cpulse_invalid_index = PA_INVALID_INDEX;
static const pa_volume_t cpulse_volume_norm = PA_VOLUME_NORM;
static const pa_volume_t cpulse_volume_muted = PA_VOLUME_MUTED;
#endif
