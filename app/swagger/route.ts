// The interface viewer at /swagger: Swagger UI served from the installed
// swagger-ui-dist package (no CDN), reading /swagger/doc.json.
export const dynamic = "force-static";

const html = `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<title>Polymock API</title>
<meta name="viewport" content="width=device-width, initial-scale=1">
<link rel="icon" href="/swagger/assets/favicon-32x32.png">
<link rel="stylesheet" href="/swagger/assets/swagger-ui.css">
</head>
<body>
<div id="swagger-ui"></div>
<script src="/swagger/assets/swagger-ui-bundle.js"></script>
<script src="/swagger/assets/swagger-ui-standalone-preset.js"></script>
<script src="/swagger/assets/init.js"></script>
</body>
</html>`;

export function GET() {
  return new Response(html, { headers: { "Content-Type": "text/html; charset=utf-8" } });
}
