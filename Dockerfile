# kbc in a container, for authors who install nothing but Docker:
#
#   docker build -t kbc .
#   docker run --rm -u "$(id -u):$(id -g)" -v "$PWD:/kb" kbc lint
#
# The build stage makes kbc's Debian package with the command CI runs on a bare machine
# (.ci/image-steps runs this file's steps there); the run stage installs that package on
# bookworm-slim with apt-get, which brings the shared libraries it depends on and nothing else.
FROM debian:bookworm AS build
WORKDIR /src
COPY . .
RUN .ci/setup --package build-package

FROM debian:bookworm-slim
COPY --from=build /src/build-package/kbc_*.deb /tmp/
# The packages are the .deb's dependencies, whatever bookworm has now: not pinned.
# hadolint ignore=DL3008
RUN apt-get update \
 && apt-get install -y --no-install-recommends /tmp/kbc_*.deb \
 && rm -rf /var/lib/apt/lists/* /tmp/kbc_*.deb \
 && useradd --create-home --uid 10001 kbc
USER kbc
# kbc match keeps its regex plans in the user's cache; any user may run the image (-u).
ENV XDG_CACHE_HOME=/tmp/kbc-cache
WORKDIR /kb
ENTRYPOINT ["kbc"]
CMD ["--help"]
