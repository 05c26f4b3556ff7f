"""Converged reference for the offset two-sphere impact of De Klerk et al. (validation case 1), independent
of both integrators under test: classical RK4 on the contact law with the contact's start and end
located (the step is cut there, so the dashpots' jumps fall on step boundaries and the method keeps its
fourth order).

The law is the engine's 'hooke' with kt = 0 and no Coulomb cap (contact_law.hpp, hooke.cpp): n from b
to a, overlap d - r, lever arms -r_a n and +r_b n, relative velocity of the contact points,
F_a = (kn overlap - m_eff gamma_n v_n) n - m_eff gamma_t v_t. The motion stays in the x-y plane, so each
sphere carries x, y, v_x, v_y, w_z. With paper_arm the lever arms are half the centre distance (De Klerk
et al., Eq. 22: v_t with (w_i + w_j) x x_ij / 2, torque -x_ij x F_t / 2) instead of the radius.

  python3 scripts/offset_impact_reference.py   prints the right sphere's energies after the collision
"""
import math

RADIUS, MASS = 0.5, 1.0
INERTIA = 0.4 * MASS * RADIUS * RADIUS
M_EFF = 0.5 * MASS


def contact_force(state, kn, gamma_n, gamma_t, paper_arm):
    """Accelerations of (x, y, theta) of both spheres while in contact; state = positions + velocities."""
    xa, ya, _, xb, yb, _, vxa, vya, wa, vxb, vyb, wb = state
    dx, dy = xa - xb, ya - yb
    r = math.hypot(dx, dy)
    nx, ny = dx / r, dy / r
    arm = 0.5 * r if paper_arm else RADIUS
    arm_ax, arm_ay = -arm * nx, -arm * ny
    arm_bx, arm_by = arm * nx, arm * ny
    # v + w x arm in the plane: (vx - w arm_y, vy + w arm_x)
    rx = (vxa - wa * arm_ay) - (vxb - wb * arm_by)
    ry = (vya + wa * arm_ax) - (vyb + wb * arm_bx)
    vn = rx * nx + ry * ny
    tx, ty = rx - vn * nx, ry - vn * ny
    fn = kn * (2 * RADIUS - r) - M_EFF * gamma_n * vn
    fx, fy = fn * nx - M_EFF * gamma_t * tx, fn * ny - M_EFF * gamma_t * ty
    torque_a = arm_ax * fy - arm_ay * fx
    torque_b = -(arm_bx * fy - arm_by * fx)
    return [fx / MASS, fy / MASS, torque_a / INERTIA, -fx / MASS, -fy / MASS, torque_b / INERTIA]


def rk4_in_contact(state, h, law):
    def rate(s):
        return s[6:] + contact_force(s, *law)
    k1 = rate(state)
    k2 = rate([s + 0.5 * h * k for s, k in zip(state, k1)])
    k3 = rate([s + 0.5 * h * k for s, k in zip(state, k2)])
    k4 = rate([s + h * k for s, k in zip(state, k3)])
    return [s + h / 6 * (a + 2 * b + 2 * c + d) for s, a, b, c, d in zip(state, k1, k2, k3, k4)]


def separated(state):
    return math.hypot(state[0] - state[3], state[1] - state[4]) >= 2 * RADIUS


def right_sphere_energies(dy=0.1, v=1.0, kn=1.95e5, gamma_n=30.0, gamma_t=15.0, steps_per_contact=4000,
                          paper_arm=False):
    """Translational and rotational kinetic energy of the right sphere after the collision (spheres
    start apart at (-+x, -+dy/2) with velocities (+-v, 0); they first touch with no spin)."""
    law = (kn, gamma_n, gamma_t, paper_arm)
    h = math.pi * math.sqrt(M_EFF / kn) / steps_per_contact
    x = 0.5 * math.sqrt((2 * RADIUS) ** 2 - dy * dy)  # free flight is exact: start at first touch
    state = [-x, -0.5 * dy, 0.0, x, 0.5 * dy, 0.0, v, 0.0, 0.0, -v, 0.0, 0.0]
    while True:
        trial = rk4_in_contact(state, h, law)
        if not separated(trial):
            state = trial
            continue
        low, high = 0.0, h  # the contact ends within this step: bisect for its end
        for _ in range(60):
            mid = 0.5 * (low + high)
            if separated(rk4_in_contact(state, mid, law)):
                high = mid
            else:
                low = mid
        state = rk4_in_contact(state, high, law)
        vx, vy, w = state[9], state[10], state[11]
        return 0.5 * MASS * (vx * vx + vy * vy), 0.5 * INERTIA * w * w


if __name__ == "__main__":
    for steps in (2000, 4000):
        kinetic, rotational = right_sphere_energies(steps_per_contact=steps)
        print(f"t_c/{steps}: translational {kinetic:.12g}, rotational {rotational:.12g}")
    kinetic, rotational = right_sphere_energies(paper_arm=True)
    print(f"lever arm x_ij/2 (paper): translational {kinetic:.12g}, rotational {rotational:.12g}")
