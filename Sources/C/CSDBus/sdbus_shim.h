#ifndef AUDIOSESSION_SDBUS_SHIM_H
#define AUDIOSESSION_SDBUS_SHIM_H

/* sd-bus, for Sources/AudioSessionMPRIS only. Its variadic calls (sd_bus_call_method,
   sd_bus_message_append, sd_bus_reply_method_return) cannot be called from Swift; the MPRIS code
   builds messages with sd_bus_message_new_method_call, sd_bus_message_new_method_return and
   sd_bus_message_append_basic instead. */
#include <systemd/sd-bus.h>

/* Exporting an object (the app's own MPRIS player: Sources/AudioSessionMPRIS/MPRISPlayerService.swift).
   sd_bus_add_object_vtable takes an array of sd_bus_vtable entries, which C fills with the
   SD_BUS_* initializer macros of <systemd/sd-bus-vtable.h>; Swift cannot import those macros, nor
   set the entries' bit fields, so each function below fills one entry with one macro. The caller
   owns the array and every string it points to, which must outlive the object's registration.
   `names`: the arguments' names, each followed by a NUL, the whole followed by one more NUL
   ("Offset\0\0"), or "" for none. Methods and writable properties are marked unprivileged (any
   peer on the bus may call them, as on any session bus). */

static inline void audiosession_sdbus_vtable_start(sd_bus_vtable *entry) {
    *entry = (sd_bus_vtable) SD_BUS_VTABLE_START(0);
}

static inline void audiosession_sdbus_vtable_method(
        sd_bus_vtable *entry, const char *member, const char *signature, const char *names,
        sd_bus_message_handler_t handler) {
    *entry = (sd_bus_vtable) SD_BUS_METHOD(member, signature, "", handler,
                                           SD_BUS_VTABLE_UNPRIVILEGED);
    entry->x.method.names = names;
}

static inline void audiosession_sdbus_vtable_signal(
        sd_bus_vtable *entry, const char *member, const char *signature, const char *names) {
    *entry = (sd_bus_vtable) SD_BUS_SIGNAL(member, signature, 0);
    entry->x.signal.names = names;
}

/* `set` NULL: a read-only property. `flags`: SD_BUS_VTABLE_PROPERTY_CONST, …_EMITS_CHANGE, or 0
   (the property changes without a signal, as MPRIS's Position). */
static inline void audiosession_sdbus_vtable_property(
        sd_bus_vtable *entry, const char *member, const char *signature,
        sd_bus_property_get_t get, sd_bus_property_set_t set, uint64_t flags) {
    if (set) {
        *entry = (sd_bus_vtable) SD_BUS_WRITABLE_PROPERTY(
                member, signature, get, set, 0, flags | SD_BUS_VTABLE_UNPRIVILEGED);
    } else {
        *entry = (sd_bus_vtable) SD_BUS_PROPERTY(member, signature, get, 0, flags);
    }
}

static inline void audiosession_sdbus_vtable_end(sd_bus_vtable *entry) {
    *entry = (sd_bus_vtable) SD_BUS_VTABLE_END;
}

#endif
