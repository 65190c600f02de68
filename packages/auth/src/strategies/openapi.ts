/** The `{ "success": true }` answer of sign-in and sign-out, as the API reference shows it. */
export const successContent = {
  'application/json': {
    schema: {
      type: 'object',
      required: ['success'],
      properties: { success: { type: 'boolean', const: true } },
    },
    example: { success: true },
  },
};
