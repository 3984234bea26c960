"""An independent reader of TensorBoard event files: protoc compiles the Event message, Debian's python3-protobuf
parses it, and every record's masked CRC-32C is checked here. Prints one JSON object per event."""
import json, os, struct, subprocess, sys, tempfile

PROTO = """
syntax = "proto3";
package selfplay_check;
message Value { string tag = 1; float simple_value = 2; }
message Summary { repeated Value value = 1; }
message Event { double wall_time = 1; int64 step = 2; oneof what { string file_version = 3; Summary summary = 5; } }
"""

def crc32c(data):
    crc = 0xFFFFFFFF
    for byte in data:
        crc ^= byte
        for _ in range(8):
            crc = (crc >> 1) ^ 0x82F63B78 if crc & 1 else crc >> 1
    return crc ^ 0xFFFFFFFF

def masked(data):
    crc = crc32c(data)
    return (((crc >> 15) | (crc << 17)) + 0xA282EAD8) & 0xFFFFFFFF

with tempfile.TemporaryDirectory() as folder:
    with open(os.path.join(folder, "event.proto"), "w") as proto:
        proto.write(PROTO)
    subprocess.run(["protoc", "--python_out=" + folder, "-I" + folder, os.path.join(folder, "event.proto")], check=True)
    sys.path.insert(0, folder)
    import event_pb2

    with open(sys.argv[1], "rb") as events:
        data = events.read()
    offset = 0
    while offset < len(data):
        header = data[offset:offset + 8]
        (length,) = struct.unpack("<Q", header)
        (header_crc,) = struct.unpack("<I", data[offset + 8:offset + 12])
        assert header_crc == masked(header), "length CRC mismatch at %d" % offset
        body = data[offset + 12:offset + 12 + length]
        (body_crc,) = struct.unpack("<I", data[offset + 12 + length:offset + 16 + length])
        assert body_crc == masked(body), "data CRC mismatch at %d" % offset
        offset += 16 + length
        event = event_pb2.Event()
        event.ParseFromString(body)
        out = {"step": event.step, "wallTime": event.wall_time}
        if event.HasField("file_version"):
            out["fileVersion"] = event.file_version
        else:
            out["scalars"] = {value.tag: value.simple_value for value in event.summary.value}
        print(json.dumps(out))
