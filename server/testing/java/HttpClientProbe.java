// Java 17's java.net.http.HttpClient as Polymock's Java client library uses it:
// GET each URL given (on plain HTTP it offers an h2c upgrade on every request,
// over one connection) and print "<status> <protocol> <body>" per line, so the
// front's tests see what the real client's bytes get back.
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;

public class HttpClientProbe {
    public static void main(String[] args) throws Exception {
        HttpClient client = HttpClient.newHttpClient();
        String token = System.getenv("PROBE_API_KEY");
        for (String url : args) {
            HttpRequest.Builder request = HttpRequest.newBuilder(URI.create(url)).GET();
            if (token != null) request.header("X-API-Key", token);
            HttpResponse<String> response = client.send(request.build(), HttpResponse.BodyHandlers.ofString());
            System.out.println(response.statusCode() + " " + response.version() + " " + response.body().replace("\n", " "));
        }
    }
}
