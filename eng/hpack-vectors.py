#!/usr/bin/python3
"""Writes HPACK test vectors from python-hpack (a peer implementation of RFC 7541), for the HPACK
decoder's tests: response header blocks encoded by one encoder in sequence (its dynamic table
carries from block to block), with and without Huffman, indexing and never-indexed fields, and a
table size update. A block line: "block", hex of the block, the expected :status, the expected
content-length (-1 when absent), and the encoder's dynamic table size after the block. A Huffman
line: "huffman", the hex of a string Huffman-coded by python-hpack, and the hex of the string.

    apt-get install python3-hpack   (eng/install-tools.sh does it)
    /usr/bin/python3 eng/hpack-vectors.py > tests/Benchmarks.Tests/Fixtures/hpack-responses.txt
"""
import random
from hpack import Encoder, NeverIndexedHeaderTuple
from hpack.huffman import HuffmanEncoder
from hpack.huffman_constants import REQUEST_CODES, REQUEST_CODES_LENGTH

random.seed(7541)
encoder = Encoder()
statuses = ["200", "204", "301", "404", "500", "200", "200", "418"]
servers = ["Kestrel", "nginx/1.22.1", "Benchmarks-Sockets"]
types = ["text/plain", "application/json", "text/html; charset=utf-8"]
print("# from python-hpack " + __import__("hpack").__version__ + " (eng/hpack-vectors.py)")
huffman = HuffmanEncoder(REQUEST_CODES, REQUEST_CODES_LENGTH)
for i in range(300):
    plain = bytes(random.getrandbits(8) for _ in range(random.randint(0, 40))) if i % 3 == 0 else bytes(random.choice(b"abcdefghijklmnopqrstuvwxyz0123456789-_/.:;, ") for _ in range(random.randint(0, 60)))
    print("huffman\t%s\t%s" % (huffman.encode(plain).hex(), plain.hex()))
for i in range(200):
    if i == 120:
        # The encoder shrinks its table and says so at the next block's start.
        encoder.header_table_size = 256
    if i == 160:
        encoder.header_table_size = 4096
    status = random.choice(statuses)
    length = random.choice([None, 0, 13, 27, 1024, 123456789])
    headers = [(":status", status)]
    if random.random() < 0.9:
        headers.append(("content-type", random.choice(types)))
    headers.append(("date", "Thu, 26 Nov 2026 19:%02d:%02d GMT" % (i // 60 % 60, i % 60)))
    headers.append(("server", random.choice(servers)))
    if length is not None:
        headers.append(("content-length", str(length)))
    if random.random() < 0.3:
        headers.append(("x-request-%d" % random.randint(0, 40), "v" * random.randint(0, 300)))
    if random.random() < 0.2:
        headers.append(NeverIndexedHeaderTuple("set-cookie", "session=%08x" % random.getrandbits(32)))
    huffman = random.random() < 0.7
    block = encoder.encode(headers, huffman=huffman)
    print("block\t%s\t%s\t%d\t%d" % (block.hex(), status, -1 if length is None else length, encoder.header_table._current_size))
