#pragma once
#include <sqlite3.h>

/* sqlite3_config is variadic, which Swift cannot call: the one setting the broker makes goes
   through this. It must run before SQLite initializes (before the first open); later it is
   SQLITE_MISUSE and changes nothing. Memory-use statistics off: otherwise every allocation SQLite
   makes takes a process-wide mutex to count it. */
static inline int healthbroker_sqlite3_disable_memstatus(void) {
    return sqlite3_config(SQLITE_CONFIG_MEMSTATUS, 0);
}
