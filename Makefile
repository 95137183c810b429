# The two set-up commands are `make run` and `make test`; each installs what is missing.
SWIFT ?= swift
BENCHMARKS := MediaTimeBenchmark PlaylistBenchmark QueueCoreBenchmark StoreBenchmark EngineBenchmark LoaderBenchmark HTTPServerBenchmark ServerBenchmark

.PHONY: bootstrap bootstrap-bench build run test bench sample-media clean

bootstrap:
	@scripts/bootstrap

# The benchmarks also need the reference tools (nginx, wrk); `make test` does not.
bootstrap-bench:
	@scripts/bootstrap --bench

build: bootstrap
	$(SWIFT) build

# Serves the dashboard, the API and the demo queue on http://127.0.0.1:8080/ (HLSQ_PORT and
# the other HLSQ_ variables change that; see docs/API.md).
run: build
	"$$($(SWIFT) build --show-bin-path)/hlsq" serve

# Suites run one after another: Swift's cooperative pool has one thread per core, and the
# CPU-bound suites would otherwise starve the server and loader suites' tasks for seconds.
test: bootstrap
	$(SWIFT) test --no-parallel

bench: bootstrap-bench
	@for benchmark in $(BENCHMARKS); do \
		$(SWIFT) run -c release $$benchmark || exit 1; \
	done

sample-media: bootstrap
	scripts/make-sample-media

clean:
	rm -rf .build
