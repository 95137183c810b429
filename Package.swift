// swift-tools-version:6.1
import PackageDescription

let package = Package(
    name: "hlsq",
    platforms: [.macOS(.v15)],
    products: [
        .executable(name: "hlsq", targets: ["hlsq"]),
    ],
    dependencies: [
        .package(url: "https://github.com/apple/swift-argument-parser", from: "1.8.2"),
    ],
    targets: [
        // System libraries: one module map each, found through pkg-config, installed by apt.
        .systemLibrary(
            name: "CCurl",
            pkgConfig: "libcurl",
            providers: [.apt(["libcurl4-openssl-dev"])]
        ),
        .systemLibrary(
            name: "CAVFormat",
            pkgConfig: "libavformat",
            providers: [.apt(["libavformat-dev"])]
        ),
        .systemLibrary(
            name: "CSQLite",
            pkgConfig: "sqlite3",
            providers: [.apt(["libsqlite3-dev"])]
        ),
        .systemLibrary(
            name: "CMicroHTTPD",
            pkgConfig: "libmicrohttpd",
            providers: [.apt(["libmicrohttpd-dev"])]
        ),
        // Typed C wrappers for the variadic functions and macros Swift cannot call.
        .target(
            name: "CShims",
            dependencies: ["CCurl", "CAVFormat", "CSQLite", "CMicroHTTPD"]
        ),

        .target(name: "MediaTime"),
        .target(
            name: "Loader",
            dependencies: ["MediaTime", "Playlist", "CCurl", "CAVFormat", "CShims"]
        ),
        .target(name: "QueueCore", dependencies: ["MediaTime"]),
        .target(name: "MicroHTTPD", dependencies: ["CMicroHTTPD", "CShims"]),
        .target(name: "Store", dependencies: ["CSQLite", "CShims", "MediaTime"]),
        .target(name: "Server", dependencies: ["MicroHTTPD", "MediaTime", "Playlist", "Engine", "Loader"]),
        .target(name: "Playlist", dependencies: ["MediaTime"]),
        .target(name: "Engine", dependencies: ["QueueCore", "Loader", "Store", "MediaTime"]),

        .executableTarget(
            name: "hlsq",
            dependencies: [
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
                "Loader",
                "MediaTime",
                "Store",
                "Playlist",
                "Engine",
                "MicroHTTPD",
                "Server",
            ]
        ),

        .testTarget(name: "MediaTimeTests", dependencies: ["MediaTime"]),
        .testTarget(name: "LoaderTests", dependencies: ["Loader", "MediaTime", "Playlist", "OriginSupport"]),
        // Runs the built `hlsq` executable as a process.
        .testTarget(name: "CommandLineTests", dependencies: ["hlsq", "OriginSupport", "Store"]),
        // Starts the test HTTP origin (Tests/origin/origin.py) for any test or benchmark.
        .target(name: "OriginSupport", path: "Tests/OriginSupport"),
        .testTarget(name: "QueueCoreTests", dependencies: ["QueueCore", "MediaTime"]),
        .testTarget(name: "MicroHTTPDTests", dependencies: ["MicroHTTPD", "CCurl", "CShims"]),
        .testTarget(name: "StoreTests", dependencies: ["Store", "MediaTime", "CSQLite"]),
        .testTarget(
            name: "ServerTests",
            dependencies: ["Server", "Engine", "Loader", "MicroHTTPD", "MediaTime", "Playlist", "OriginSupport"]
        ),
        .testTarget(
            name: "PlaylistTests",
            dependencies: ["Playlist", "MediaTime"],
            exclude: ["Fixtures"]
        ),
        // Runs the built `hlsq serve` as a process and talks to it over sockets.
        .testTarget(name: "EndToEndTests", dependencies: ["hlsq"]),
        .testTarget(
            name: "EngineTests",
            dependencies: ["Engine", "QueueCore", "Loader", "Store", "MediaTime", "OriginSupport", "CSQLite"]
        ),
        .testTarget(name: "CShimsTests", dependencies: ["CShims", "CCurl", "CAVFormat", "CSQLite", "CMicroHTTPD"]),

        // Benchmarks, run in release by `make bench`.
        .target(name: "BenchmarkSupport", path: "Benchmarks/BenchmarkSupport"),
        .executableTarget(
            name: "MediaTimeBenchmark",
            dependencies: ["BenchmarkSupport", "MediaTime"],
            path: "Benchmarks/MediaTimeBenchmark"
        ),
        .executableTarget(
            name: "QueueCoreBenchmark",
            dependencies: ["BenchmarkSupport", "QueueCore", "MediaTime"],
            path: "Benchmarks/QueueCoreBenchmark"
        ),
        .executableTarget(
            name: "EngineBenchmark",
            dependencies: ["BenchmarkSupport", "Engine", "Loader", "Store", "MediaTime"],
            path: "Benchmarks/EngineBenchmark"
        ),
        .target(name: "HTTPBenchmarkSupport", path: "Benchmarks/HTTPBenchmarkSupport"),
        .executableTarget(
            name: "ServerBenchmark",
            dependencies: ["BenchmarkSupport", "HTTPBenchmarkSupport", "Server", "Engine", "Loader", "MicroHTTPD"],
            path: "Benchmarks/ServerBenchmark"
        ),
        .executableTarget(
            name: "HTTPServerBenchmark",
            dependencies: ["BenchmarkSupport", "HTTPBenchmarkSupport", "MicroHTTPD"],
            path: "Benchmarks/HTTPServerBenchmark"
        ),
        .executableTarget(
            name: "StoreBenchmark",
            dependencies: ["BenchmarkSupport", "Store", "MediaTime"],
            path: "Benchmarks/StoreBenchmark"
        ),
        .executableTarget(
            name: "LoaderBenchmark",
            dependencies: ["BenchmarkSupport", "Loader", "MediaTime", "Playlist", "OriginSupport"],
            path: "Benchmarks/LoaderBenchmark"
        ),
        .executableTarget(
            name: "PlaylistBenchmark",
            dependencies: ["BenchmarkSupport", "Playlist", "MediaTime"],
            path: "Benchmarks/PlaylistBenchmark",
            exclude: ["compare.py"]
        ),
    ],
    swiftLanguageModes: [.v6]
)
