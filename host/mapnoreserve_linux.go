package host

import "syscall"

// mapNoReserve keeps the reservation out of the system's commit accounting: only the pages the
// module grows into count.
const mapNoReserve = syscall.MAP_NORESERVE
