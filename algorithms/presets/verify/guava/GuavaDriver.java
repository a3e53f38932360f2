// chbench verify-presets driver for "guava": the REAL Guava Hashing.consistentHash from Debian's
// libguava-java (/usr/share/java/guava.jar), with the common string-key idiom
//   bucket = Hashing.consistentHash(Hashing.murmur3_128().hashString(key, UTF_8), N)
//   server = list[bucket]
//
// usage: java -cp guava.jar:. GuavaDriver DEB_VERSION CONFIGS_TSV KEYS_TXT OUT_DIR
// Writes OUT_DIR/<stem>.tsv for every configs.tsv row whose system column is "guava".

import com.google.common.hash.HashFunction;
import com.google.common.hash.Hashing;

import java.io.BufferedWriter;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.nio.file.StandardCopyOption;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Properties;

public final class GuavaDriver {
    private static void fail(String msg) {
        System.err.println("guava/GuavaDriver: " + msg);
        System.exit(1);
    }

    private static List<String> readLines(Path p) throws IOException {
        String text = new String(Files.readAllBytes(p), StandardCharsets.UTF_8);
        List<String> lines = new ArrayList<>(Arrays.asList(text.split("\n", -1)));
        if (!lines.isEmpty() && lines.get(lines.size() - 1).isEmpty()) {
            lines.remove(lines.size() - 1);
        }
        return lines;
    }

    private static String guavaVersion() throws IOException {
        try (InputStream in = Hashing.class.getResourceAsStream(
                "/META-INF/maven/com.google.guava/guava/pom.properties")) {
            if (in == null) {
                return "unknown";
            }
            Properties p = new Properties();
            p.load(in);
            return p.getProperty("version", "unknown");
        }
    }

    public static void main(String[] args) throws IOException {
        if (args.length != 4) {
            fail("usage: GuavaDriver DEB_VERSION CONFIGS_TSV KEYS_TXT OUT_DIR");
        }
        String debVersion = args[0];
        List<String> keys = readLines(Paths.get(args[2]));
        Path outDir = Paths.get(args[3]);
        HashFunction murmur = Hashing.murmur3_128();
        String head = "Guava " + guavaVersion() + " (Debian libguava-java " + debVersion
                + ", java " + System.getProperty("java.version") + ")";

        String[] header = null;
        int rows = 0;
        for (String line : readLines(Paths.get(args[1]))) {
            if (line.isEmpty() || line.startsWith("#")) {
                continue;
            }
            String[] f = line.split("\t", -1);
            if (header == null) {
                header = f;
                continue;
            }
            Map<String, String> r = new HashMap<>();
            for (int i = 0; i < header.length; i++) {
                r.put(header[i], i < f.length ? f[i] : "");
            }
            if (!"guava".equals(r.get("system"))) {
                continue;
            }
            rows++;
            String stem = r.get("stem");
            if (!r.get("options").isEmpty()) {
                fail(stem + ": unexpected options " + r.get("options"));
            }
            List<String> servers = Arrays.asList(r.get("servers").split(","));
            for (String s : servers) {
                if (s.matches(".+:\\d+:\\d+")) {
                    fail(stem + ": weights are not supported by consistentHash (" + s + ")");
                }
            }
            int n = servers.size();
            Path part = outDir.resolve(stem + ".tsv.part");
            try (BufferedWriter w = Files.newBufferedWriter(part, StandardCharsets.UTF_8)) {
                w.write("# " + head + "; bucket = Hashing.consistentHash(Hashing.murmur3_128()"
                        + ".hashString(key, UTF_8), " + n + "); server = list[bucket] with list = ["
                        + String.join(", ", servers) + "]; key<TAB>server\n");
                for (String k : keys) {
                    int bucket = Hashing.consistentHash(murmur.hashString(k, StandardCharsets.UTF_8), n);
                    w.write(k + "\t" + servers.get(bucket) + "\n");
                }
            }
            Files.move(part, outDir.resolve(stem + ".tsv"), StandardCopyOption.REPLACE_EXISTING);
        }
        if (rows == 0) {
            fail("no configs.tsv rows with system \"guava\"");
        }
    }
}
