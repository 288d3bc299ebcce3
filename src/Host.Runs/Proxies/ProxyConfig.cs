using System.Globalization;

namespace Benchmarks.Host.Proxies;

/// <summary>
/// The configuration each proxy is started with: keep-alive connections to the upstream (a pool
/// of them, reused across clients), no logging, workers or threads as many as its CPUs, and
/// everything it writes kept in its own folder.
/// </summary>
internal static class ProxyConfig
{
    /// <param name="folder">Where it writes.</param>
    /// <param name="listenPort">Its port on loopback.</param>
    /// <param name="upstream">The server under test.</param>
    /// <param name="workers">Worker processes.</param>
    /// <param name="markerPath">A path it answers itself with <paramref name="token"/>, to prove the port is its.</param>
    /// <param name="token">This start's token.</param>
    public static string Nginx(string folder, int listenPort, Uri upstream, int workers, string markerPath, string token) =>
        string.Create(CultureInfo.InvariantCulture, $$"""
        worker_processes {{workers}};
        pid {{folder}}/nginx.pid;
        error_log {{folder}}/error.log warn;
        events { worker_connections 65536; multi_accept on; }
        http {
          access_log off;
          client_body_temp_path {{folder}}/body;
          proxy_temp_path {{folder}}/proxy;
          fastcgi_temp_path {{folder}}/fastcgi;
          uwsgi_temp_path {{folder}}/uwsgi;
          scgi_temp_path {{folder}}/scgi;
          keepalive_requests 1000000;
          upstream app {
            server {{upstream.Host}}:{{upstream.Port}};
            keepalive 512;
            keepalive_requests 1000000;
          }
          server {
            listen 127.0.0.1:{{listenPort}} backlog=4096;
            location = {{markerPath}} { return 200 "{{token}}"; }
            location / {
              proxy_pass http://app;
              proxy_http_version 1.1;
              proxy_set_header Connection "";
              proxy_buffering off;
            }
          }
        }
        """);

    public static string Haproxy(int listenPort, Uri upstream, int threads, string markerPath, string token) =>
        string.Create(CultureInfo.InvariantCulture, $$"""
        global
          nbthread {{threads}}
        defaults
          mode http
          option http-keep-alive
          timeout connect 5s
          timeout client 60s
          timeout server 60s
          timeout http-keep-alive 60s
        frontend benchmarks
          bind 127.0.0.1:{{listenPort}}
          http-request return status 200 content-type text/plain string "{{token}}" if { path {{markerPath}} }
          default_backend app
        backend app
          http-reuse always
          server app {{upstream.Host}}:{{upstream.Port}} maxconn 10000
        """);
}
