#!/usr/bin/env bash
# What `cmake --install` and `cpack -G DEB` make of a build: the files under the prefix, a
# Debian package whose dependencies dpkg-shlibdeps computed, and a kbc that runs from either.
# (Installing the package with apt-get on the machine is .ci/image-steps's, which CI runs.)
#   install.sh SOURCE_DIR BUILD_DIR WORK_DIR
set -euo pipefail
source=$(cd "$1" && pwd) build=$(cd "$2" && pwd) work=$3
rm -rf "$work" && mkdir -p "$work" && cd "$work"
failures=0
check() {  # check NAME COMMAND...
  local name=$1
  shift
  if "$@" >check.out 2>&1; then echo "ok   $name"; else
    echo "FAIL $name:" && sed 's/^/    /' check.out && failures=$((failures + 1))
  fi
}

# cmake --install into a prefix.
cmake --install "$build" --prefix "$work/prefix" >/dev/null
for file in bin/kbc share/man/man1/kbc.1.gz share/bash-completion/completions/kbc \
  share/zsh/vendor-completions/_kbc share/fish/vendor_completions.d/kbc.fish; do
  check "installs $file" test -s "prefix/$file"
done
check "the installed kbc runs" grep -q '^kbc [0-9.]* (commit ' <("prefix/bin/kbc" --version)
check "the installed man page is kbc's" cmp <(gzip -dc prefix/share/man/man1/kbc.1.gz) <("prefix/bin/kbc" --man)
check "the installed bash completion is kbc's" \
  cmp prefix/share/bash-completion/completions/kbc <("prefix/bin/kbc" completion bash)
check "man reads the page" bash -c "MANWIDTH=80 man -l prefix/share/man/man1/kbc.1.gz | grep -q 'kbc completion'"

# The Debian package.
cpack -G DEB --config "$build/CPackConfig.cmake" -B "$work/package" >/dev/null 2>&1
deb=$(ls package/kbc_*.deb)
echo "package: $(basename "$deb"), $(stat -c %s "$deb") bytes"
depends=$(dpkg-deb -f "$deb" Depends)
echo "Depends: $depends"
for library in libc6 libstdc++6 libre2-9 libyaml-cpp0.7 libcmark-gfm0.29.0.gfm.6 libsimdjson14 libssl3; do
  check "depends on $library" grep -q "\b$library\b" <<<"$depends"
done
check "depends on no -dev package" bash -c "! grep -q -- '-dev' <<<'$depends'"
check "the package's architecture is the machine's" \
  test "$(dpkg-deb -f "$deb" Architecture)" = "$(dpkg --print-architecture)"
check "the package's version is kbc's" \
  grep -q "^kbc $(dpkg-deb -f "$deb" Version) " <("prefix/bin/kbc" --version)
contents=$(dpkg-deb -c "$deb" | awk '{print $6}')
for file in ./usr/bin/kbc ./usr/share/man/man1/kbc.1.gz ./usr/share/bash-completion/completions/kbc \
  ./usr/share/zsh/vendor-completions/_kbc ./usr/share/fish/vendor_completions.d/kbc.fish; do
  check "the package holds $file" grep -qxF "$file" <<<"$contents"
done
dpkg-deb -x "$deb" unpacked
# The GitHub Action sets kbc up with .ci/setup, so it installs the same Debian packages.
check "the GitHub Action installs kbc with .ci/setup" \
  grep -q '^ *"$GITHUB_ACTION_PATH/.ci/setup" ' "$source/action.yml"
check "the packaged kbc is stripped" bash -c "file unpacked/usr/bin/kbc | grep -q ', stripped'"
check "the packaged kbc lints the shipped entries" \
  unpacked/usr/bin/kbc lint --root "$source" --no-cache

echo "install: $failures failure(s)"
((failures == 0))
rm -rf prefix package unpacked  # kept only to look into a failure
