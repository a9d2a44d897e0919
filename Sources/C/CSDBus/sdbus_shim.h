#ifndef AUDIOSESSION_SDBUS_SHIM_H
#define AUDIOSESSION_SDBUS_SHIM_H

/* sd-bus, for Sources/AudioSessionMPRIS only. Its variadic calls (sd_bus_call_method,
   sd_bus_message_append) cannot be called from Swift; the MPRIS code builds messages with
   sd_bus_message_new_method_call and sd_bus_message_append_basic instead. */
#include <systemd/sd-bus.h>

#endif
