/**
 * Imported by checkout for its side effect: loads every OrderEffects implementation so it registers
 * itself (see order-effects.ts). One import line per area.
 */
import './loyalty/order-effects.ts';
