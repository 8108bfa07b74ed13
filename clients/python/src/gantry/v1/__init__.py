"""The gantry.v1 API as protoc makes it (the *_pb2 modules, committed; pom.xml checks them) and the Controller stub."""
