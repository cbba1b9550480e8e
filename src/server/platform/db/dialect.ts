/** The two databases Comando speaks. */
export type Dialect = 'sqlite' | 'postgres';
