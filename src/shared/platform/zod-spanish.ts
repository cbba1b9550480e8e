import { z } from 'zod';

// Zod's own messages (for fields without a message of ours) in Spanish, on the server and in the browser.
z.config(z.locales.es());

export { z };
