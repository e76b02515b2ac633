// The benchmark's two tools, greet and create_ticket, as zod shapes for
// the TypeScript SDKs (McpServer.registerTool and the Agent SDK's tool()).
import * as z from "zod";

export const greet = {
  name: "greet",
  description: "Greet greets a person by name.",
  shape: {
    name: z.string().describe("Name of the person to greet."),
  },
  handler: async ({ name }) => ({
    content: [{ type: "text", text: `Hello, ${name}! Welcome.` }],
  }),
};

export const createTicket = {
  name: "create_ticket",
  description: "CreateTicket creates a ticket on the project board.",
  shape: {
    title: z.string().describe("Ticket title."),
    description: z.string().describe("Ticket description."),
    kind: z.enum(["bug", "feature", "task"]).describe("Kind is the kind of a ticket."),
    labels: z.array(z.string()).max(5).optional().describe("Up to five labels."),
  },
  handler: async ({ title }) => ({
    content: [{ type: "text", text: `Ticket '${title}' created successfully (ID: TKT-42)` }],
  }),
};
