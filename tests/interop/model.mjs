// A scripted stand-in for the Anthropic Messages API, on loopback only, so
// that Claude Code can run its whole client loop here with no real model
// and no network: it records every request Claude Code sends and answers
// from a fixed script.
//
// The script: a request whose tools include the practice-notes tool and
// whose last message is the user's prompt gets a tool_use block calling
// that tool with the phrase after "for: " in the prompt; a request whose
// last message holds a tool_result gets a short text reply, and so does
// any other request (Claude Code may send side requests, such as a title).
// Replies are streamed as the server-sent events of the Messages API when
// the request asks for "stream": true.
import { createServer } from "node:http";

export const toolName = "mcp__practice-notes__search_notes";

// startModel listens on 127.0.0.1 at a free port and resolves to
// { url, requests, close }; requests holds every request body, parsed.
export function startModel() {
  const requests = [];
  let n = 0;
  const server = createServer((req, res) => {
    let body = "";
    req.setEncoding("utf8");
    req.on("data", (c) => (body += c));
    req.on("end", () => {
      const url = new URL(req.url, "http://127.0.0.1");
      if (req.method !== "POST" || url.pathname !== "/v1/messages") {
        // Anything else (token counting, a model list) is not part of
        // the loop; a 404 is what an unknown endpoint gets.
        res.writeHead(404, { "content-type": "application/json" });
        res.end(JSON.stringify({ type: "error", error: { type: "not_found_error", message: `no ${url.pathname} here` } }));
        return;
      }
      let msg;
      try {
        msg = JSON.parse(body);
      } catch {
        res.writeHead(400).end();
        return;
      }
      requests.push(msg);
      n++;
      const content = reply(msg, n);
      const message = {
        id: `msg_scripted_${n}`,
        type: "message",
        role: "assistant",
        model: msg.model,
        content: [],
        stop_reason: null,
        stop_sequence: null,
        usage: { input_tokens: 1, output_tokens: 1 },
      };
      const stop = content[0].type === "tool_use" ? "tool_use" : "end_turn";
      if (!msg.stream) {
        res.writeHead(200, { "content-type": "application/json" });
        res.end(JSON.stringify({ ...message, content, stop_reason: stop }));
        return;
      }
      res.writeHead(200, { "content-type": "text/event-stream", "cache-control": "no-cache" });
      const event = (type, data) => res.write(`event: ${type}\ndata: ${JSON.stringify({ type, ...data })}\n\n`);
      event("message_start", { message });
      content.forEach((block, index) => {
        if (block.type === "tool_use") {
          event("content_block_start", { index, content_block: { ...block, input: {} } });
          event("content_block_delta", { index, delta: { type: "input_json_delta", partial_json: JSON.stringify(block.input) } });
        } else {
          event("content_block_start", { index, content_block: { type: "text", text: "" } });
          event("content_block_delta", { index, delta: { type: "text_delta", text: block.text } });
        }
        event("content_block_stop", { index });
      });
      event("message_delta", { delta: { stop_reason: stop, stop_sequence: null }, usage: { output_tokens: 1 } });
      event("message_stop", {});
      res.end();
    });
  });
  return new Promise((resolve, reject) => {
    server.on("error", reject);
    server.listen(0, "127.0.0.1", () => {
      resolve({
        url: `http://127.0.0.1:${server.address().port}`,
        requests,
        close: () => new Promise((r) => server.close(r)),
      });
    });
  });
}

// lastUser is the request's last user message, as content blocks. Claude
// Code may put a "system" message after it (the environment).
function lastUser(msg) {
  const last = (msg.messages ?? []).filter((m) => m.role === "user").at(-1);
  if (!last) return [];
  return Array.isArray(last.content) ? last.content : [{ type: "text", text: String(last.content) }];
}

// reply is the script: the content blocks of the answer to request msg.
function reply(msg, n) {
  const blocks = lastUser(msg);
  if (blocks.some((b) => b.type === "tool_result")) {
    return [{ type: "text", text: "Scripted model: the tool result was received." }];
  }
  const offered = (msg.tools ?? []).some((t) => t.name === toolName);
  const answered = (msg.messages ?? []).some((m) => m.role === "assistant");
  const prompt = blocks.filter((b) => b.type === "text").map((b) => b.text).join("\n");
  const m = /^Search my practice notes for: (.*)$/m.exec(prompt);
  if (offered && !answered && m) {
    return [{ type: "tool_use", id: `toolu_scripted_${n}`, name: toolName, input: { query: m[1] } }];
  }
  return [{ type: "text", text: "Scripted model: nothing to do." }];
}

// toolResults returns the tool_result blocks Claude Code sent back, in
// order, each with the text it carried.
export function toolResults(requests) {
  const out = [];
  for (const r of requests) {
    for (const b of lastUser(r)) {
      if (b.type !== "tool_result") continue;
      const text = typeof b.content === "string" ? b.content : (b.content ?? []).filter((c) => c.type === "text").map((c) => c.text).join("\n");
      out.push({ id: b.tool_use_id, isError: b.is_error === true, text });
    }
  }
  return out;
}
