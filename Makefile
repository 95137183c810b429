# The two set-up commands are `make run` and `make test`; each installs what is missing.
SWIFT ?= swift
BENCHMARKS := MediaTimeBenchmark PlaylistBenchmark QueueCoreBenchmark StoreBenchmark EngineBenchmark LoaderBenchmark HTTPServerBenchmark ServerBenchmark

.PHONY: bootstrap bootstrap-bench bootstrap-browser build run test test-browser screenshots bench sample-media clean

bootstrap:
	@scripts/bootstrap

# The benchmarks also need the reference tools (nginx, wrk); `make test` does not.
bootstrap-bench:
	@scripts/bootstrap --bench

# The browser tests also need Chromium, chromedriver, selenium and pytest.
bootstrap-browser:
	@scripts/bootstrap --browser

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
	$(MAKE) --no-print-directory test-browser

# The dashboard in headless Chromium against the real `hlsq serve` (Tests/browser/).
test-browser: bootstrap-browser
	$(SWIFT) build --product hlsq
	HLSQ_BINARY="$$($(SWIFT) build --show-bin-path)/hlsq" .build-browser/venv/bin/python -m pytest -q Tests/browser

# Regenerates docs/screenshots/ from the real server and Chromium.
screenshots: bootstrap-browser
	$(SWIFT) build --product hlsq
	HLSQ_BINARY="$$($(SWIFT) build --show-bin-path)/hlsq" .build-browser/venv/bin/python Tests/browser/screenshots.py docs/screenshots

bench: bootstrap-bench
	@for benchmark in $(BENCHMARKS); do \
		$(SWIFT) run -c release $$benchmark || exit 1; \
	done

sample-media: bootstrap
	scripts/make-sample-media

clean:
	rm -rf .build
