"""Astraea's theta estimated from a past window (section 4.4's actual value, section 5.2)."""

import numpy as np
import pytest

import aisched
from aisched.errors import InvalidScenarioError
from aisched.online.tenants.astraea import default_thetas
from aisched.online.tenants.theta import THETA_ESTIMATES, attach_past_window, estimation_jobs, past_window
from aisched.scenarios import tenants as sc

SMALL = {"seed": 1, "users": 2, "servers": 3, "jobs": 6, "trace": None}


def test_generate_attaches_a_past_window_on_the_same_cluster():
    inst = sc.generate(**SMALL)
    past = past_window(inst)
    assert past is not None and past.num_jobs == inst.num_jobs
    assert past.worker_bandwidth == inst.worker_bandwidth and (past.workers == inst.workers).all()
    jobs, rule = estimation_jobs(inst)
    assert jobs is past and rule == "past_window"
    assert estimation_jobs(inst, "all_jobs") == (inst, "all_jobs")
    assert THETA_ESTIMATES == ("past_window", "all_jobs")


def test_past_window_theta_reads_no_scheduled_job():
    inst = sc.generate(**SMALL)
    richer = inst.replace(utility_intercept=inst.utility_intercept * 10.0)  # every scheduled job worth more
    attach_past_window(richer, past_window(inst))
    a = aisched.run("astraea", inst)
    b = aisched.run("astraea", richer)
    assert a.info["theta_estimate"] == b.info["theta_estimate"] == "past_window"
    assert (a.info["theta_w"], a.info["theta_p"]) == (b.info["theta_w"], b.info["theta_p"])
    assert (a.info["theta_w"], a.info["theta_p"]) == default_thetas(past_window(inst))
    c = aisched.run("astraea", richer, theta_estimate="all_jobs")  # the earlier rule sees them
    assert c.info["theta_w"] != a.info["theta_w"]
    assert (c.info["theta_w"], c.info["theta_p"]) == default_thetas(richer)


def test_theta_scale_multiplies_the_past_estimate():
    inst = sc.generate(**SMALL)
    tw, tp = default_thetas(past_window(inst))
    out = aisched.run("astraea", inst, theta_scale=1.4)
    assert out.info["theta_w"] == pytest.approx(1.4 * tw) and out.info["theta_p"] == pytest.approx(1.4 * tp)


def test_an_instance_without_a_past_window_says_so():
    inst = sc.generate(**SMALL).replace()  # a copy: no past window
    assert past_window(inst) is None
    out = aisched.run("astraea", inst)
    assert out.info["theta_estimate"] == "all_jobs (no past window attached)"
    assert (out.info["theta_w"], out.info["theta_p"]) == default_thetas(inst)
    assert aisched.run("astraea", inst, theta_w=3.0, theta_p=4.0).info["theta_estimate"] == "given"
    with pytest.raises(InvalidScenarioError, match="theta_estimate"):
        aisched.run("astraea", inst, theta_estimate="future")


def test_a_past_window_must_share_the_cluster():
    inst = sc.generate(**SMALL)
    other = sc.generate(**{**SMALL, "seed": 2})
    with pytest.raises(InvalidScenarioError, match="past_window"):
        attach_past_window(inst, other)
    assert np.isfinite(default_thetas(past_window(inst))).all()
