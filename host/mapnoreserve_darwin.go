package host

// mapNoReserve: macOS commits anonymous memory lazily without being asked.
const mapNoReserve = 0
