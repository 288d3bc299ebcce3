using Google.Protobuf;
using Grpc.Core;

namespace Benchmarks.Scenarios.Grpc;

/// <summary>
/// gRPC's benchmark service as its reference servers answer it: a response whose payload is
/// <c>response_size</c> zero bytes, to every request. A size over <see cref="MaxResponseSize"/>
/// or below zero is INVALID_ARGUMENT. The streaming methods answer every request on the stream;
/// the server stream sends until the client cancels it, yielding its thread after each message.
/// </summary>
internal sealed class BenchmarkServer : BenchmarkService.BenchmarkServiceBase
{
    /// <summary>The largest payload a request may ask for: a bound on what one call makes the server allocate.</summary>
    public const int MaxResponseSize = 1024 * 1024;

    public override Task<SimpleResponse> UnaryCall(SimpleRequest request, ServerCallContext context) => Task.FromResult(Respond(request));

    public override async Task StreamingCall(IAsyncStreamReader<SimpleRequest> requestStream, IServerStreamWriter<SimpleResponse> responseStream,
        ServerCallContext context)
    {
        ArgumentNullException.ThrowIfNull(requestStream);
        ArgumentNullException.ThrowIfNull(responseStream);
        while (await requestStream.MoveNext(context.CancellationToken))
        {
            await responseStream.WriteAsync(Respond(requestStream.Current), context.CancellationToken);
        }
    }

    public override async Task StreamingFromServer(SimpleRequest request, IServerStreamWriter<SimpleResponse> responseStream, ServerCallContext context)
    {
        ArgumentNullException.ThrowIfNull(responseStream);
        ArgumentNullException.ThrowIfNull(context);
        var response = Respond(request);
        while (!context.CancellationToken.IsCancellationRequested)
        {
            await responseStream.WriteAsync(response, context.CancellationToken);

            // A write that completes at once (room in the stream's pipe) never gives the thread back: without
            // this, two such streams on one connection starved Kestrel's output loop, sent nothing and spun on
            // after the client had gone.
            await Task.Yield();
        }
    }

    public override async Task<SimpleResponse> StreamingFromClient(IAsyncStreamReader<SimpleRequest> requestStream, ServerCallContext context)
    {
        ArgumentNullException.ThrowIfNull(requestStream);
        SimpleRequest? last = null;
        while (await requestStream.MoveNext(context.CancellationToken))
        {
            last = requestStream.Current;
        }

        return Respond(last ?? new SimpleRequest());
    }

    public override Task StreamingBothWays(IAsyncStreamReader<SimpleRequest> requestStream, IServerStreamWriter<SimpleResponse> responseStream,
        ServerCallContext context) =>
        StreamingCall(requestStream, responseStream, context);

    private static SimpleResponse Respond(SimpleRequest request)
    {
        ArgumentNullException.ThrowIfNull(request);
        if (request.ResponseSize is < 0 or > MaxResponseSize)
        {
            throw new RpcException(new Status(StatusCode.InvalidArgument, $"response_size must be between 0 and {MaxResponseSize}"));
        }

        return new SimpleResponse { Payload = new Payload { Body = request.ResponseSize == 0
            ? ByteString.Empty
            : ByteString.CopyFrom(new byte[request.ResponseSize]) } };
    }
}
