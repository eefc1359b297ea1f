#!/usr/bin/env bash
# A SCIP index of a Java source tree with scip-java from Maven Central (a bench helper, not a test:
# npm's set-up does not install Maven artifacts). Compiles the tree with the SemanticDB javac plugin
# that ships inside scip-java's jar (compile errors from missing dependencies still leave SemanticDB
# files), then converts them with `scip-java index-semanticdb`.
#   bash bench/scip/scip-java.sh SRC_DIR OUT.scip [VERSION]
set -euo pipefail
src="$(cd "$1" && pwd)"; out="$2"; version="${3:-0.10.3}"
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
cat > "$work/pom.xml" <<POM
<project xmlns="http://maven.apache.org/POM/4.0.0"><modelVersion>4.0.0</modelVersion>
<groupId>bench</groupId><artifactId>scip-java-runner</artifactId><version>1</version>
<dependencies><dependency><groupId>com.sourcegraph</groupId><artifactId>scip-java_2.13</artifactId><version>$version</version></dependency></dependencies></project>
POM
(cd "$work" && mvn -q -B dependency:build-classpath -Dmdep.outputFile=cp.txt >&2)
cp="$(cat "$work/cp.txt")"
jar="$(tr ':' '\n' < "$work/cp.txt" | grep "scip-java_2.13-$version.jar")"
(cd "$work" && unzip -o -q "$jar" semanticdb-plugin.jar)
mkdir -p "$work/semanticdb" "$work/classes"
javac -cp "$work/semanticdb-plugin.jar" "-Xplugin:semanticdb -sourceroot:$src -targetroot:$work/semanticdb" -d "$work/classes" $(find "$src" -name '*.java') >&2 || true
java -cp "$cp" com.sourcegraph.scip_java.ScipJava index-semanticdb --output "$(realpath -m "$out")" "$work/semanticdb" >&2
echo "$out"
