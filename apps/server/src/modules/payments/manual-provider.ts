import type { PaymentProvider } from './payment-provider.js';

/** No gateway: the buyer follows the operator's instructions; an owner or administrator confirms. */
export const manualProvider: PaymentProvider = {
  id: 'manual',
  methods: (settings) => (settings.manualEnabled ? [{ id: 'manual', name: '人工确认付款' }] : []),
  start: (_order, settings) => ({ instructions: settings.manualInstructions }),
};
