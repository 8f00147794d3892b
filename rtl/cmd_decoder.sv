// Command-processor packet decoder (platform.md section 3, cmp_packets.h).
//
// Chunks stream in one per cycle (in_valid/in_ready). The header chunk comes
// with in_avail, the number of chunks left in the command buffer counting the
// header, so truncation is detected as the reference decoder does. Payload
// chunks follow; NOP payloads are consumed and dropped. One decoded command
// is presented on out_* (out_valid/out_ready) per packet; a command with an
// error code carries no payload. Synchronous, active-high reset.
module cmd_decoder (
    input  logic        clk,
    input  logic        rst,
    // chunk stream
    input  logic        in_valid,
    output logic        in_ready,
    input  logic [63:0] in_data,
    input  logic [15:0] in_avail,
    // decoded command
    output logic        out_valid,
    input  logic        out_ready,
    output logic [7:0]  out_opcode,
    output logic [31:0] out_inline,
    output logic [12:0] out_payload_count,
    output logic [7:0]  out_error,
    output logic [63:0] out_payload [8]
);
  // Opcodes OP_*, error codes E_* (avp_cmp_error) and REG_NUM_REGS, generated
  // from cmp_packets.h at configure time (rtl/cmp_defs.cmake).
`include "cmp_defs.svh"

  typedef enum logic [1:0] {IDLE, PAYLOAD, SKIP, OUT} state_t;
  state_t state;
  logic [12:0] remaining;  // payload chunks still to accept
  logic [2:0]  index;      // next payload slot

  // Header fields.
  wire [7:0]  h_opcode = in_data[15:8];
  wire [13:0] h_count  = in_data[29:16];
  wire [31:0] h_inline = in_data[63:32];
  wire [12:0] h_chunks = h_count[13:1];
  wire        h_bad    = (in_data[7:0] != 8'd0) || (in_data[31:30] != 2'b11);

  // The payload count each opcode needs (13 bits: unknown opcodes never match).
  function automatic logic [12:0] expected(input logic [7:0] op, input logic [2:0] nargs);
    case (op)
      OP_FINISH, OP_SYNC_CACHE: expected = 13'd0;
      OP_WRITE_REG64, OP_LOAD_REG64, OP_STORE_REG64, OP_STORE_IMM64: expected = 13'd1;
      OP_COPY_MEM64: expected = 13'd3;
      OP_RUN_KERNEL_SLICE: expected = 13'd2;
      OP_RUN_INSTANCES: expected = 13'd1 + {10'd0, nargs};  // NUM_ARGS = inline[10:8]
      default: expected = 13'h1FFF;
    endcase
  endfunction

  wire known = (h_opcode >= OP_FINISH) && (h_opcode <= OP_SYNC_CACHE);
  wire reg_op = (out_opcode == OP_WRITE_REG64) || (out_opcode == OP_LOAD_REG64) || (out_opcode == OP_STORE_REG64);

  assign in_ready = (state == IDLE) || (state == PAYLOAD) || (state == SKIP);
  assign out_valid = (state == OUT);

  always_ff @(posedge clk) begin
    if (rst) begin
      state <= IDLE;
      remaining <= '0;
      index <= '0;
      out_opcode <= '0;
      out_inline <= '0;
      out_payload_count <= '0;
      out_error <= E_OK;
      for (int i = 0; i < 8; i++) out_payload[i] <= '0;
    end else begin
      case (state)
        IDLE:
          if (in_valid) begin
            out_opcode <= h_opcode;
            out_inline <= h_inline;
            out_error <= E_OK;
            index <= '0;
            for (int i = 0; i < 8; i++) out_payload[i] <= '0;
            if (h_bad) begin
              out_payload_count <= '0;
              out_error <= E_BAD_HEADER;
              state <= OUT;
            end else if (h_count[0]) begin
              out_payload_count <= '0;
              out_error <= E_ODD_COUNT;
              state <= OUT;
            end else begin
              out_payload_count <= h_chunks;
              if ({3'd0, h_chunks} + 16'd1 > in_avail) begin
                out_error <= E_TRUNCATED;
                state <= OUT;
              end else if (h_opcode == OP_NOP) begin
                remaining <= h_chunks;
                state <= (h_chunks == 13'd0) ? OUT : SKIP;
              end else if (!known) begin
                out_error <= E_UNKNOWN_OPCODE;
                state <= OUT;
              end else if (h_chunks != expected(h_opcode, h_inline[10:8])) begin
                out_error <= E_PAYLOAD_COUNT;
                state <= OUT;
              end else begin
                remaining <= h_chunks;
                state <= (h_chunks == 13'd0) ? OUT : PAYLOAD;
              end
            end
          end
        PAYLOAD:
          if (in_valid) begin
`ifdef MUTATE
            // Test-only fault: the second payload chunk loses its top bit.
            out_payload[index] <= (index == 3'd1) ? {1'b0, in_data[62:0]} : in_data;
`else
            out_payload[index] <= in_data;
`endif
            index <= index + 3'd1;
            remaining <= remaining - 13'd1;
            if (remaining == 13'd1) state <= OUT;
          end
        SKIP:
          if (in_valid) begin
            remaining <= remaining - 13'd1;
            if (remaining == 13'd1) state <= OUT;
          end
        OUT:
          if (out_ready) state <= IDLE;
        default: state <= IDLE;
      endcase
      // Register index check once the command is complete (reference order: after the payload count).
      if (state == PAYLOAD && in_valid && remaining == 13'd1 && reg_op && out_inline >= REG_NUM_REGS) out_error <= E_BAD_REGISTER;
    end
  end

`ifdef AVP_COVERAGE
  // User coverage points of the coverage build (--rtl-coverage): one per
  // opcode (cov_op_*, generated in cmp_covers.svh) and one per error path of
  // this decoder (cov_err_*), counted at the output handshake.
  wire presented = out_valid && out_ready && !rst;
`include "cmp_covers.svh"
  cov_err_BAD_HEADER: cover property (@(posedge clk) presented && out_error == E_BAD_HEADER);
  cov_err_ODD_COUNT: cover property (@(posedge clk) presented && out_error == E_ODD_COUNT);
  cov_err_PAYLOAD_COUNT: cover property (@(posedge clk) presented && out_error == E_PAYLOAD_COUNT);
  cov_err_UNKNOWN_OPCODE: cover property (@(posedge clk) presented && out_error == E_UNKNOWN_OPCODE);
  cov_err_BAD_REGISTER: cover property (@(posedge clk) presented && out_error == E_BAD_REGISTER);
  cov_err_TRUNCATED: cover property (@(posedge clk) presented && out_error == E_TRUNCATED);
`endif
endmodule
