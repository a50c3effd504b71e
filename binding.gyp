{
  "targets": [
    {
      "target_name": "leakscan_prefilter",
      "sources": ["native/prefilter.c"],
      "cflags": ["-O3", "-std=c11", "-Wall", "-Wextra"],
      "defines": ["NAPI_VERSION=8"]
    }
  ]
}
