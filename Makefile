# The two set-up commands are `make run` and `make test`; each installs what is missing.
SWIFT ?= swift
BENCHMARKS := MediaTimeBenchmark PlaylistBenchmark

.PHONY: bootstrap build run test bench sample-media clean

bootstrap:
	@scripts/bootstrap

build: bootstrap
	$(SWIFT) build

run: build
	"$$($(SWIFT) build --show-bin-path)/hlsq" --help

test: bootstrap
	$(SWIFT) test

bench: bootstrap
	@for benchmark in $(BENCHMARKS); do \
		$(SWIFT) run -c release $$benchmark || exit 1; \
	done

sample-media: bootstrap
	scripts/make-sample-media

clean:
	rm -rf .build
