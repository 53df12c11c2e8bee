#!/usr/bin/env bash
# Writes a two-language Hugo site of kbc's Markdown pages, for the benchmarks' comparison with
# Hugo: the pages of MD_DIR/en and MD_DIR/zh as its content, and minimal layouts.
# Usage: bench/hugo_site.sh MD_DIR SITE
set -euo pipefail
md=$1
site=$2
mkdir -p "$site/layouts/_default" "$site/content"
cp -r "$md/en" "$site/content/en"
cp -r "$md/zh" "$site/content/zh"
cat >"$site/hugo.toml" <<'TOML'
baseURL = "https://kb.example/"
title = "kbc benchmark"
defaultContentLanguage = "en"
disableKinds = ["taxonomy", "term"]
[languages.en]
  contentDir = "content/en"
  weight = 1
[languages.zh]
  contentDir = "content/zh"
  weight = 2
TOML
echo '<!DOCTYPE html><html lang="{{ .Site.Language.Lang }}"><head><meta charset="utf-8"><title>{{ .Title }}</title></head><body>{{ block "main" . }}{{ end }}</body></html>' \
  >"$site/layouts/_default/baseof.html"
echo '{{ define "main" }}<main>{{ .Content }}</main>{{ end }}' >"$site/layouts/_default/single.html"
echo '{{ define "main" }}<ul>{{ range .Pages }}<li><a href="{{ .RelPermalink }}">{{ .Title }}</a></li>{{ end }}</ul>{{ end }}' \
  >"$site/layouts/_default/list.html"
