import { Controller, Delete, Get, Logger, Post, Req, Res } from '@nestjs/common';
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { PartnerRequestAuthorizer } from '../shared/partner-request-authorizer';
import { earlyAnswer } from './mcp-message-check';
import { PartnerToolServerFactory } from './partner-tools';

const MCP_PATH = 'v1/mcp';

// {mcp_url}: MCP's Streamable HTTP transport, stateless (no sessions or server stream, so GET and DELETE are 405).
// Each POST is admitted like a REST request (a refusal is the Error body before any tool runs), then answered by
// a fresh server and transport; the body comes already parsed, under the service's size limit.
@Controller(MCP_PATH)
export class McpController {
  private readonly logger = new Logger('McpController');

  constructor(
    private readonly authorizer: PartnerRequestAuthorizer,
    private readonly tools: PartnerToolServerFactory,
  ) {}

  @Post()
  async post(@Req() request: FastifyRequest, @Res() reply: FastifyReply): Promise<void> {
    const caller = await this.authorizer.authorize(request, reply);
    if (Array.isArray(request.body)) {
      // One JSON-RPC message per HTTP request (batches left MCP in 2025-06-18), so that
      // admission, and later the per-key rate limit, applies to every tool call.
      this.sendJsonRpcError(
        reply,
        400,
        -32600,
        'Invalid Request: JSON-RPC batches are not accepted; send one message per request',
      );
      return;
    }
    const early = earlyAnswer(request.body);
    if (early) {
      void reply
        .status(200)
        .header('content-type', 'application/json; charset=utf-8')
        .send(JSON.stringify({ jsonrpc: '2.0', ...early }));
      return;
    }
    const server = this.tools.create(caller);
    const transport = new StreamableHTTPServerTransport({ sessionIdGenerator: undefined, enableJsonResponse: true });
    // From here on the transport writes the raw response; Fastify must not answer too.
    reply.hijack();
    reply.raw.on('close', () => {
      void transport.close();
      void server.close();
    });
    try {
      await server.connect(transport);
      await transport.handleRequest(request.raw, reply.raw, request.body);
    } catch (error) {
      this.logger.error(
        `POST /${MCP_PATH} [${request.id}] failed: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}`,
      );
      if (!reply.raw.headersSent) {
        reply.raw.writeHead(500, { 'content-type': 'application/json; charset=utf-8' });
        reply.raw.end(
          JSON.stringify({
            jsonrpc: '2.0',
            error: { code: -32603, message: `Internal error (request ${request.id})` },
            id: null,
          }),
        );
      } else if (!reply.raw.writableEnded) {
        reply.raw.end();
      }
    }
  }

  @Get()
  async get(@Req() request: FastifyRequest, @Res() reply: FastifyReply): Promise<void> {
    await this.methodNotAllowed(request, reply);
  }

  @Delete()
  async delete(@Req() request: FastifyRequest, @Res() reply: FastifyReply): Promise<void> {
    await this.methodNotAllowed(request, reply);
  }

  private async methodNotAllowed(request: FastifyRequest, reply: FastifyReply): Promise<void> {
    await this.authorizer.authorize(request, reply);
    void reply.header('allow', 'POST');
    this.sendJsonRpcError(reply, 405, -32000, 'Method not allowed: this stateless endpoint takes POST only');
  }

  private sendJsonRpcError(reply: FastifyReply, status: number, code: number, message: string): void {
    void reply
      .status(status)
      .header('content-type', 'application/json; charset=utf-8')
      .send(JSON.stringify({ jsonrpc: '2.0', error: { code, message }, id: null }));
  }
}
