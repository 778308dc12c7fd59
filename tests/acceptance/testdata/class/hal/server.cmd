# floods stdout with lines that are not JSON-RPC
yes "ready, ready, ready"
