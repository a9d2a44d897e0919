#ifndef AUDIOSESSION_SDNOTIFY_SHIM_H
#define AUDIOSESSION_SDNOTIFY_SHIM_H

/* sd_notify, for Sources/AudioSessionDaemon/ServiceNotification.swift only: the daemon's
   readiness and status for systemd (Type=notify). sd_notifyf is variadic and cannot be called
   from Swift; the daemon formats its messages itself and calls sd_notify. */
#include <systemd/sd-daemon.h>

#endif
