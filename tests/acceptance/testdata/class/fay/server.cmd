# waits forever without reading or answering
sleep 3600
